import GraphSpec

/// The stories the store actions' weights steer towards, read from the specification's state:
///
/// - the crash class (R15, R28; G15, G17): a saved model's identifier is held, the row is looked up in the other
///   context, one context deletes it and saves, then the other reads, changes, relates, saves or looks it up;
/// - the schema's count limits (G10): a to-many with a `maxCount` is filled to its limit and one beyond.
///
/// Each predicate names a stage; an action whose stage is open weighs more and, most of the time, draws the
/// arguments that advance the story. Every other choice stays possible.
extension GraphModel {
    /// A registered model with a permanent identifier: its row is saved.
    func isSaved(_ o: Int) -> Bool { objects[o].lifecycle == .registered && objects[o].id?.permanent == true }

    /// Whether context `c` has a live model of identifier `id`.
    func hasModel(_ id: SpecID, in c: Int) -> Bool {
        objects.indices.contains { objects[$0].context == c && objects[$0].id == id && objects[$0].lifecycle == .registered }
    }

    /// Stage 1: a saved model whose identifier no step holds yet.
    func unheldSaved(_ o: Int) -> Bool {
        guard isSaved(o), let id = objects[o].id else { return false }
        return !held.contains { $0.id == id }
    }

    /// Stage 2: the context in which held identifier `h` names a saved row that context has no model of.
    func missingContext(_ h: Int) -> Int? {
        guard let id = held[h].id, id.permanent, id.number < rows.count, rows[id.number] != nil else { return nil }
        return (0...1).first { !hasModel(id, in: $0) }
    }

    /// Stage 3: a live model whose row the other context also holds (either may delete it).
    func isShared(_ o: Int) -> Bool {
        guard objects[o].lifecycle == .registered, !objects[o].deleted, objects[o].context >= 0, let id = objects[o].id, id.permanent
        else { return false }
        return hasModel(id, in: 1 - objects[o].context)
    }

    /// Stage 4: context `c` has a pending delete of a row the other context holds.
    func deletesForeignRow(_ c: Int) -> Bool {
        objects.indices.contains { o in
            guard objects[o].context == c, objects[o].deleted, let id = objects[o].id, id.permanent else { return false }
            return hasModel(id, in: 1 - c)
        }
    }

    /// Stage 5: a model of a context whose row another context's save deleted (touching it traps, G17), or, where
    /// reads of a model whose deletion was saved trap (G18), such a model.
    func isStale(_ o: Int) -> Bool {
        (objects[o].lifecycle == .invalidated && objects[o].context >= 0)
            || (objects[o].lifecycle == .detached && parameters.readAfterSavedDelete == .traps)
    }

    /// Stage 5 for a held identifier: the context whose model of it is stale (G15).
    func staleContext(_ h: Int) -> Int? {
        guard let id = held[h].id else { return nil }
        return objects.indices.first { objects[$0].id == id && objects[$0].lifecycle == .invalidated && objects[$0].context >= 0 }
            .map { objects[$0].context }
    }

    /// Whether some object is stale (`isStale`); tested in a closure, since `isStale` passed as a value would capture a
    /// copy of the whole model at each call.
    var hasStale: Bool { objects.indices.contains { isStale($0) } }

    /// Whether some reference names an object `include` accepts.
    func anyRef(_ include: (Int) -> Bool) -> Bool { refs.contains { $0 >= 0 && include($0) } }

    /// A registered model of a context, not deleted, that holds a live model of its context through a relationship
    /// without an inverse (`holder`), or is held so.
    func inInverselessPair(_ o: Int, holder: Bool) -> Bool {
        guard objects[o].lifecycle == .registered, !objects[o].deleted else { return false }
        func holds(_ h: Int, _ t: Int) -> Bool {
            objects[h].links.indices.contains { r in entities[objects[h].entity].relationships[r].inverse == nil && objects[h].links[r].contains(t) }
        }
        return objects.indices.contains { t in
            t != o && objects[t].context == objects[o].context && objects[t].lifecycle == .registered && (holder ? holds(o, t) : holds(t, o))
        }
    }

    /// G11: a registered model of a context, not deleted, whose deny relationship without an inverse holds a live
    /// model of its context (deleting it and saving fails or not, as `denyWithoutInverse` says).
    func deniesWithoutInverse(_ o: Int) -> Bool {
        guard objects[o].lifecycle == .registered, !objects[o].deleted else { return false }
        return entities[objects[o].entity].relationships.indices.contains { r in
            let relationship = entities[objects[o].entity].relationships[r]
            return relationship.inverse == nil && relationship.deleteRule == .deny && objects[o].links[r].contains { t in
                objects[t].context == objects[o].context && objects[t].lifecycle == .registered && !objects[t].deleted
            }
        }
    }

    /// G11: the context holding a pending delete of a model whose deny relationship without an inverse holds a model
    /// that is not deleted, if any (its save fails or not, as `denyWithoutInverse` says).
    var inverselessDenyContext: Int? {
        objects.indices.first { o in
            objects[o].context >= 0 && objects[o].deleted && entities[objects[o].entity].relationships.indices.contains { r in
                Self.isInverselessDeny(entities[objects[o].entity].relationships[r]) && objects[o].links[r].contains { !objects[$0].deleted }
            }
        }.map { objects[$0].context }
    }

    // MARK: One-to-one pairs

    /// A to-one relationship of `o` whose inverse is a to-one that another model holds a target of, in `o`'s
    /// context: relating `o` there takes the partner over (G7), if any.
    func stealable(_ o: Int) -> Int? {
        guard objects[o].lifecycle == .registered || objects[o].lifecycle == .new else { return nil }
        return entities[objects[o].entity].relationships.indices.first { r in objects.indices.contains { takenPartner(o, r, $0) } }
    }

    /// Whether `t` can be taken from its partner by `o` through to-one relationship `r`, whose inverse is a to-one.
    func takenPartner(_ o: Int, _ r: Int, _ t: Int) -> Bool {
        let relationship = entities[objects[o].entity].relationships[r]
        guard !relationship.toMany, let inverse = relationship.inverse, !entities[relationship.destination].relationships[inverse].toMany,
              objects[t].entity == relationship.destination, objects[t].lifecycle == objects[o].lifecycle, objects[t].context == objects[o].context
        else { return false }
        return objects[t].links[inverse].contains { $0 != o }
    }

    /// Whether `relationship` is a to-one whose inverse is a to-one (G7's one-to-one pairs).
    func isOneToOne(_ relationship: SpecRelationship) -> Bool {
        !relationship.toMany && relationship.inverse.map { !entities[relationship.destination].relationships[$0].toMany } == true
    }

    /// Whether `relationship` is a deny rule without an inverse (G11: deleting its holder and saving fails or not, as
    /// `denyWithoutInverse` says).
    static func isInverselessDeny(_ relationship: SpecRelationship) -> Bool { relationship.inverse == nil && relationship.deleteRule == .deny }

    /// Whether `relationship` is a deny or cascade rule without an inverse (G11, G9: deleting its holder and saving
    /// fails, or deletes what it holds, as the rule and `denyWithoutInverse` say).
    static func isInverselessSaveRule(_ relationship: SpecRelationship) -> Bool {
        relationship.inverse == nil && (relationship.deleteRule == .deny || relationship.deleteRule == .cascade)
    }

    /// A relationship of `o` that `shape` accepts, with a model of `o`'s context it could hold there (a first pair:
    /// one a later relate takes over, G7, or one a delete of `o` leaves held, G11), if any.
    func pairable(_ o: Int, where shape: (SpecRelationship) -> Bool) -> Int? {
        guard objects[o].lifecycle == .registered || objects[o].lifecycle == .new, !objects[o].deleted else { return nil }
        let relationships = entities[objects[o].entity].relationships
        return relationships.indices.first { r in shape(relationships[r]) && objects.indices.contains { pairTarget(o, r, $0) } }
    }

    /// Whether `t` can be paired with `o` through relationship `r`: of its destination, another model, in `o`'s
    /// context and lifecycle, not deleted, not held there yet.
    func pairTarget(_ o: Int, _ r: Int, _ t: Int) -> Bool {
        t != o && objects[t].entity == entities[objects[o].entity].relationships[r].destination && objects[t].lifecycle == objects[o].lifecycle
            && objects[t].context == objects[o].context && !objects[t].deleted && !objects[o].links[r].contains(t)
    }

    // MARK: Count limits

    /// The relationship of `o` with a `maxCount` it holds at most `maxCount` of (so one more relate reaches the
    /// limit or goes one beyond it), if any.
    /// (Fields are read through `objects[o]`, never a copy of the object: these run for every step's weights.)
    func fillable(_ o: Int) -> Int? {
        guard objects[o].lifecycle == .new || objects[o].lifecycle == .registered else { return nil }
        let entity = objects[o].entity
        return entities[entity].relationships.indices.first { r in
            guard let limit = entities[entity].relationships[r].maxCount else { return false }
            return objects[o].links[r].count <= limit && objects.indices.contains { fillTarget(o, r, $0) }
        }
    }

    /// Whether `t` can join `o`'s relationship `r`: of its destination, live, not yet related, same context.
    func fillTarget(_ o: Int, _ r: Int, _ t: Int) -> Bool {
        objects[t].entity == entities[objects[o].entity].relationships[r].destination && !objects[o].links[r].contains(t)
            && (objects[t].lifecycle == .new || objects[t].lifecycle == .registered) && objects[t].context == objects[o].context
    }

    /// How many models the fullest limited to-many that can take one more holds (-1: none can).
    var fullest: Int {
        refs.reduce(-1) { best, o in
            guard o >= 0, let r = fillable(o) else { return best }
            return max(best, objects[o].links[r].count)
        }
    }

    /// The context of a live, inserted model holding more than a limited to-many allows (its save fails with 1590).
    var overfullContext: Int? {
        objects.indices.first { o in
            objects[o].lifecycle == .registered && !objects[o].deleted && entities[objects[o].entity].relationships.indices.contains { r in
                entities[objects[o].entity].relationships[r].maxCount.map { objects[o].links[r].count > $0 } ?? false
            }
        }.map { objects[$0].context }
    }

    /// What a count limit still lacks: the destination entity of a live model's limited to-many, and that model's
    /// context, when fewer models it could relate to exist than would take it one beyond its `maxCount`.
    var lacking: (destination: Int, context: Int)? {
        for o in objects.indices where objects[o].lifecycle == .new || objects[o].lifecycle == .registered {
            let relationships = entities[objects[o].entity].relationships
            for r in relationships.indices {
                guard let limit = relationships[r].maxCount, objects[o].links[r].count <= limit else { continue }
                let eligible = objects.indices.filter { fillTarget(o, r, $0) }.count
                if objects[o].links[r].count + eligible <= limit { return (relationships[r].destination, objects[o].context) }
            }
        }
        return nil
    }
}

// MARK: Rare states

/// The states in which a rule's failure is likely, read from the specification's state before a step: the stories
/// below draw towards them, and `graph-fuzz bench --reach` counts how many seeds' runs reach each.
extension GraphModel {
    /// G16: a saved, live model of `entity` whose `attribute` differs from its row's (a pending change a fetch by that
    /// attribute must see): its context, its pending value and its row's.
    package func pendingChange(entity: Int, attribute: Int) -> (context: Int, pending: SpecValue, saved: SpecValue)? {
        for o in objects.indices where objects[o].entity == entity && isSaved(o) && !objects[o].deleted {
            guard let id = objects[o].id, id.number < rows.count, let row = rows[id.number], row.values[attribute] != objects[o].values[attribute]
            else { continue }
            return (objects[o].context, objects[o].values[attribute], row.values[attribute])
        }
        return nil
    }

    /// G27: the newest row was deleted (a relaunch's numbering must not hand its number out again).
    package var newestRowDeleted: Bool { rows.last.map { $0 == nil } ?? false }

    /// G27: the newest row was deleted in this launch: a model of this launch still names it (a relaunch invalidates
    /// every model of the launch before, G22). The relaunch the deletion calls for has not come yet.
    package var newestRowDeletedThisLaunch: Bool {
        newestRowDeleted && objects.contains { $0.lifecycle != .invalidated && $0.id?.permanent == true && $0.id?.number == rows.count - 1 }
    }

    /// G27: whether `o` is a live model of the newest row (deleting it and saving frees the highest number).
    package func holdsNewestRow(_ o: Int) -> Bool { isSaved(o) && !objects[o].deleted && objects[o].id?.number == rows.count - 1 }

    /// G19: a saved model of context `c` holds fewer models in relationship `r` than its row (a save must clear a
    /// to-one column, remove join rows); `toMany` picks which kind of relationship.
    package func dropsLinks(_ c: Int, toMany: Bool) -> Bool {
        objects.indices.contains { o in
            guard objects[o].context == c, isSaved(o), !objects[o].deleted, let id = objects[o].id, id.number < rows.count,
                  let row = rows[id.number] else { return false }
            return entities[objects[o].entity].relationships.indices.contains { r in
                entities[objects[o].entity].relationships[r].toMany == toMany && objects[o].links[r].count < row.links[r].count
            }
        }
    }

    /// G19: the relationships of saved model `o` that hold a model its row holds too (unrelating one, then saving,
    /// must clear the saved link): its optional to-ones if it holds any, else its to-manys.
    package func heldLinks(_ o: Int) -> [Int] {
        guard isSaved(o), !objects[o].deleted, let id = objects[o].id, id.number < rows.count, let row = rows[id.number] else { return [] }
        let relationships = entities[objects[o].entity].relationships
        let held = relationships.indices.filter { !objects[o].links[$0].isEmpty && !row.links[$0].isEmpty }
        let toOne = held.filter { !relationships[$0].toMany && relationships[$0].optional }
        return toOne.isEmpty ? held : toOne
    }

    /// Whether saved model `o` holds a saved optional to-one link.
    package func holdsToOne(_ o: Int) -> Bool { heldLinks(o).first.map { !entities[objects[o].entity].relationships[$0].toMany } ?? false }

    /// G19: the context holding a saved model that dropped a saved link, if any.
    package var droppingContext: Int? { (0...1).first { dropsLinks($0, toMany: false) || dropsLinks($0, toMany: true) } }

    /// G25: context `c` holds a pending delete of a saved row (a killed save must leave it unwritten with the rest).
    package func deletesSavedRow(_ c: Int) -> Bool {
        objects.indices.contains { objects[$0].context == c && objects[$0].deleted && objects[$0].id?.permanent == true }
    }
}
