import GraphFuzzEngine
import GraphSpec

/// The store's actions over any schema: each draws its arguments from the specification's state, so every
/// command is meaningful there; `GraphModel.predict` predicts and the system performs. The simplest option is
/// first everywhere (a create is the simplest step, context 0 the simplest context). An action's arguments draw the
/// same choices whatever the state (a story only selects among what was drawn), so that when shrinking removes
/// earlier steps the later steps' choices keep their meaning; a replayed step must also be one the specification
/// allows in the state the earlier steps leave.
package enum StoreActions {
    /// The actions, in order: create, insert, relate, save, delete, read, state, set, unrelate, rollback, holdID,
    /// lookup, fetch, relaunch, killedSave. `predict` is the specification's step (an app may wrap its save),
    /// `perform` the system's; `swiftLines` renders a step of an exported test.
    package static func actions<M: StateMachine>(
        predict: @escaping (GraphCommand, inout GraphModel) -> Prediction<GraphObservation> = { command, model in model.predict(command) },
        perform: @escaping (GraphCommand, inout M.System) throws -> GraphObservation,
        swiftLines: ((GraphCommand, Prediction<GraphObservation>, TraceStep, Bool) -> [String])? = nil
    ) -> [Action<M>] where M.Model == GraphModel {
        func action(_ name: String, _ weight: UInt32, when precondition: @escaping (GraphModel) -> Bool = { _ in true },
                    _ arguments: @escaping (inout Arguments, GraphModel) throws -> GraphCommand) -> Action<M> {
            Action(name, weight: weight, when: running(precondition), arguments: allowed(arguments), predict: predict, perform: perform,
                   swiftLines: swiftLines)
        }
        func action(_ name: String, weights: @escaping (GraphModel) -> UInt32, when precondition: @escaping (GraphModel) -> Bool = { _ in true },
                    _ arguments: @escaping (inout Arguments, GraphModel) throws -> GraphCommand) -> Action<M> {
            Action(name, weights: weights, when: running(precondition), arguments: allowed(arguments), predict: predict, perform: perform,
                   swiftLines: swiftLines)
        }
        return [
            // Creates dominate while there is little to act on (as the other actions' preconditions fail).
            action("create", weights: { $0.refs.count < 3 ? 24 : 8 }) { args, model in
                let result = args.result()
                return .create(result: result, entity: args.name("entity", from: model.schema.names, weights: createWeights(model)),
                               variant: args.int("variant", in: 0...2) { $0.chooseWeighted([6, 2, 2]) },
                               context: args.int("context", in: -1...1) { draw in
                                   let context = [0, -1, 1][draw.chooseWeighted([5, 2, 1])]
                                   let steer = draw.chooseBool(probability: 0.8)
                                   return model.lacking.map { steer ? $0.context : context } ?? context
                               },
                               // G28: for a schema with a unique attribute, the values its unique attributes take.
                               unique: model.schema.hasUniqueAttributes ? args.name("unique", from: ["default", "first", "second"], default: 0) {
                                   $0.chooseWeighted([4, 4, 2])
                               } : 0)
            },
            action("insert", 3, when: { $0.hasLive }) { args, model in
                let anyModel = args.flag(probability: 0.1)
                let ref = try args.ref("model", among: model.refs.count, where: {
                    model.refs[$0] >= 0 && (anyModel || model.objects[model.refs[$0]].lifecycle == .new)
                })
                return .insert(ref, context: args.context())
            },
            // Count limits (G10): a model whose limited to-many can take one more is filled, to maxCount and beyond.
            // Once one holds a model, it is filled (the fullest first) until it is one beyond.
            action("relate", weights: { m in let fullest = m.fullest; return fullest > 0 ? 24 : fullest == 0 ? 8 : 5 }, when: { $0.hasLive }) { args, model in
                let fullest = model.fullest
                let fill = args.flag(probability: fullest > 0 ? 0.85 : 0.6) && fullest >= 0
                // A one-to-one pair (G7): a model takes a partner another model holds; while none is held, a first pair.
                let oneToOne = model.schema.hasOneToOne && !fill && args.flag(probability: 0.8)
                let steal = oneToOne && model.anyRef { model.stealable($0) != nil }
                // A deny or cascade rule without an inverse (G11, G9): a first pair, for a delete of its holder to act on.
                let ruledPair = model.schema.hasInverselessSaveRule && !fill && !oneToOne && args.flag(probability: 0.5)
                var shape: ((SpecRelationship) -> Bool)?
                if oneToOne && !steal { shape = { model.isOneToOne($0) } } else if ruledPair { shape = { GraphModel.isInverselessSaveRule($0) } }
                let pair = shape.map { shape in model.anyRef { model.pairable($0, where: shape) != nil } } ?? false
                let source = try fill ? args.ref("model", among: model.refs.count, where: {
                    let o = model.refs[$0]
                    return o >= 0 && model.fillable(o).map { model.objects[o].links[$0].count == fullest } ?? false
                })
                                    : args.live("model", model, where: { o in
                                        steal ? model.stealable(o) != nil : pair ? model.pairable(o, where: shape!) != nil : model.hasRelationships(o)
                                    })
                // Replaying, the trace's values are read as they are; the model is consulted only to draw them.
                let relationships = args.isReplaying ? [] : model.entities[model.entity(source)].relationships
                let r = args.int("relationship", in: 0...max(2, model.schema.relationshipCount - 1)) { draw in
                    let any = Int(draw.choose(upTo: UInt64(relationships.count - 1)))
                    let o = model.refs[source.index]
                    return fill ? model.fillable(o)! : steal ? model.stealable(o) ?? any : pair ? model.pairable(o, where: shape!) ?? any : any
                }
                let sameContext = args.flag(probability: 0.85)
                let target = try args.ref("target", among: model.refs.count, where: {
                    let o = model.refs[$0]
                    if fill { return o >= 0 && model.fillTarget(model.refs[source.index], r, o) }
                    if steal { return o >= 0 && model.takenPartner(model.refs[source.index], r, o) }
                    if pair { return o >= 0 && model.pairTarget(model.refs[source.index], r, o) }
                    guard o >= 0, model.objects[o].entity == relationships[r].destination else { return false }
                    let context = model.objects[o].context
                    return !sameContext || context == model.context(source) || context < 0
                })
                return .relate(source, relationship: r, target: target)
            },
            // The crash class, stage 4: the context holding a pending delete of a row the other context holds saves.
            // Count limits: the context holding a model beyond a limit saves. A saved link dropped: its context saves.
            // A pending delete of a model holding a deny rule without an inverse (G11): its context saves.
            action("save", weights: { m in
                m.deletesForeignRow(0) || m.deletesForeignRow(1) || m.overfullContext != nil || m.droppingContext != nil
                    || m.inverselessDenyContext != nil ? 20 : 6
            }) { args, model in
                let story = args.flag(probability: 0.8)
                    ? (0...1).first { model.deletesForeignRow($0) } ?? model.overfullContext ?? model.droppingContext ?? model.inverselessDenyContext : nil
                return .save(context: args.int("context", in: 0...1) { draw in
                    let any = [0, 1][draw.chooseWeighted([6, 1])]
                    return story ?? any
                })
            },
            // The crash class, stage 3: one context deletes a row the other context holds a model of.
            // Otherwise, now and then, the model of the newest row (its number must stay unused, G27), or one of a
            // pair held through a relationship without an inverse (G9's dangling pair, G11's deny without inverse).
            action("delete", weights: { m in m.anyRef { m.isShared($0) } ? 14 : m.anyRef { m.deniesWithoutInverse($0) } ? 10 : 4 }, when: { m in m.refs.contains { $0 >= 0 && m.objects[$0].context >= 0 } }) { args, model in
                let story = args.flag(probability: 0.8) && model.anyRef { model.isShared($0) }
                let newest = args.flag(probability: 0.5) && !story && model.anyRef { model.holdsNewestRow($0) }
                // The holder (its delete rule applies: deny, cascade) twice as often as the model it holds (left dangling).
                let dangle = !story && !newest && model.schema.hasInverseless && args.flag(probability: 0.6)
                let holder = dangle && args.flag(probability: 0.67)
                // A holder through a deny rule without an inverse, half the time, where the schema declares one (G11).
                let deny = holder && model.schema.hasInverselessDeny && args.flag(probability: 0.5) && model.anyRef { model.deniesWithoutInverse($0) }
                let pair = dangle && !deny && model.anyRef { model.inInverselessPair($0, holder: holder) }
                return .delete(try args.ref("model", among: model.refs.count, where: {
                    model.refs[$0] >= 0 && model.context(Ref($0)) >= 0 && (!story || model.isShared(model.refs[$0]))
                        && (!newest || model.holdsNewestRow(model.refs[$0]))
                        && (!pair || model.inInverselessPair(model.refs[$0], holder: holder))
                        && (!deny || model.deniesWithoutInverse(model.refs[$0]))
                }))
            },
            // The crash class, stage 5: the model whose row another context deleted is read (G17).
            action("read", weights: { $0.hasStale ? 8 : 3 }, when: { $0.hasLive }) { args, model in
                let ref = try args.live("model", model, where: model.hasProperties)
                return .read(ref, property: args.int("property", in: 0...max(10, model.schema.propertyCount - 1)) {
                    let shape = model.entities[model.entity(ref)]
                    return Int($0.choose(upTo: UInt64(shape.attributes.count + shape.relationships.count - 1)))
                })
            },
            action("state", 2, when: { $0.hasLive }) { args, model in .state(try args.live("model", model)) },
            // Half the time a saved model, whose change stays pending until its save (G16: a fetch must see it).
            action("set", 4, when: { $0.hasLive }) { args, model in
                let saved = args.flag(probability: 0.5) && model.anyRef { model.isSaved($0) && model.hasSettable($0) }
                let ref = try args.live("model", model, where: { model.hasSettable($0) && (!saved || model.isSaved($0)) })
                let entity = args.isReplaying ? 0 : model.entity(ref)
                // The hand-picked slots weigh more; every other attribute with schema boundaries is sometimes set.
                let slot = args.int("slot", in: 0...(model.schema.settableSlotCount - 1)) { draw in
                    draw.chooseWeighted(model.schema.slotWeights[entity])
                }
                return .set(ref, slot: slot, variant: args.int("variant", in: 0...(model.schema.settablePoolCount - 1)) { draw in
                    draw.chooseWeighted(model.schema.settable[entity][slot].weights)
                })
            },
            // A saved link is unrelated (a to-one first; on disk, more often), for its save to clear it (G19).
            action("unrelate", weights: { m in
                m.parameters.backend == .sqlite && m.anyRef { m.holdsToOne($0) } ? 8 : m.anyRef { !m.heldLinks($0).isEmpty } ? 3 : 1
            }, when: { $0.hasLive }) { args, model in
                let story = args.flag(probability: 0.8) && model.anyRef { !model.heldLinks($0).isEmpty }
                let toOne = story && model.anyRef { model.holdsToOne($0) }
                let source = try args.live("model", model, where: {
                    model.hasRelationships($0) && (!story || !model.heldLinks($0).isEmpty) && (!toOne || model.holdsToOne($0))
                })
                let links = args.isReplaying ? [] : model.objects[model.refs[source.index]].links
                let held = story ? model.heldLinks(model.refs[source.index]) : []
                let r = args.int("relationship", in: 0...max(2, model.schema.relationshipCount - 1)) { draw in
                    let any = Int(draw.choose(upTo: UInt64(links.count - 1)))
                    return held.isEmpty ? any : held[Int(draw.choose(upTo: UInt64(held.count - 1)))]
                }
                let target = try args.ref("target", among: model.refs.count, where: { model.refs[$0] >= 0 && links[r].contains(model.refs[$0]) })
                return .unrelate(source, relationship: r, target: target)
            },
            action("rollback", 1) { args, _ in .rollback(context: args.context()) },
            // The crash class, stage 1: a saved model's identifier is held.
            action("holdID", weights: { m in m.anyRef { m.unheldSaved($0) } ? 10 : 2 }, when: { $0.hasLive }) { args, model in
                let story = args.flag(probability: 0.8) && model.anyRef { model.unheldSaved($0) }
                let stale = args.flag(probability: 0.6) && model.hasStale && !story
                return .holdID(try args.ref("model", among: model.refs.count, where: { r in
                    let o = model.refs[r]
                    return o >= 0 && (story ? model.unheldSaved(o) : !stale || model.isStale(o))
                }))
            },
            // Stage 2: the held row is looked up in the context that has no model of it; stage 5: a stale model is
            // looked up where another context's save deleted its row (G15).
            action("lookup", weights: { m in
                       m.held.indices.contains { m.staleContext($0) != nil } ? 30 : m.held.indices.contains { m.missingContext($0) != nil } ? 14 : 3
                   },
                   when: { $0.held.contains { $0.id != nil } }) { args, model in
                let result = args.result()
                let anyStale = model.held.indices.contains { model.staleContext($0) != nil }
                func open(_ h: Int) -> Bool { anyStale ? model.staleContext(h) != nil : model.missingContext(h) != nil }
                let story = args.flag(probability: 0.8) && model.held.indices.contains { open($0) }
                let held = try args.index("held", among: model.held.count, where: { model.held[$0].id != nil && (!story || open($0)) })
                let stale = story ? model.staleContext(held) : nil
                let missing = story ? model.missingContext(held) : nil
                let context = args.int("context", in: 0...1) { draw in
                    let any = draw.int(in: 0...1)
                    return stale ?? missing ?? any
                }
                let weights: [UInt32]? = stale != nil ? [1, 4, 1] : missing != nil ? [3, 1, 3] : nil
                let method = LookupMethod.allCases[args.name("method", from: LookupMethod.allCases.map(\.rawValue), weights: weights)]
                return .lookup(result: result, held: held, context: context, method: method)
            },
            // A fetch by attribute: an entity, one of its settable attributes and a value of its pool.
            action("fetch", 1, when: { $0.schema.settable.contains { !$0.isEmpty } }) { args, model in
                let context = args.context()
                let settable = model.schema.settable
                let entity = args.name("entity", from: model.schema.names) { draw in
                    let candidates = settable.indices.filter { !settable[$0].isEmpty }
                    return candidates[Int(draw.choose(upTo: UInt64(candidates.count - 1)))]
                }
                let slot = args.int("slot", in: 0...(model.schema.settableSlotCount - 1)) { Int($0.choose(upTo: UInt64(max(0, settable[entity].count - 1)))) }
                let variant = args.int("variant", in: 0...(model.schema.settablePoolCount - 1)) { draw in
                    slot < settable[entity].count ? draw.chooseWeighted(settable[entity][slot].weights) : 0
                }
                try args.require(slot < settable[entity].count && variant < settable[entity][slot].values.count)
                let pool = settable[entity][slot]
                return .fetch(context: context, entity: entity, attribute: pool.attribute, value: pool.values[variant])
            },
            // The on-disk actions (G22–G26): a relaunch (on the SQLite backend it first tries damaged copies of the
            // store file, G26), and a save killed inside its transaction, then relaunched.
            // The newest row deleted in this launch: a relaunch, whose numbering must not hand its number out again
            // (G27); once relaunched, the save of a new model is what G27 needs, not another relaunch. A pending
            // delete of a saved row: a killed save, which must leave it unwritten (G25).
            action("relaunch", weights: { $0.newestRowDeletedThisLaunch ? 10 : 1 }, when: { $0.allows(.relaunch) }) { _, _ in .relaunch },
            action("killedSave", weights: { m in (0...1).contains { killWindow(m, $0) > 0 && m.deletesSavedRow($0) } ? 5 : 2 },
                   when: { m in (0...1).contains { killWindow(m, $0) > 0 } }) { args, model in
                let story = args.flag(probability: 0.8) ? (0...1).first { killWindow(model, $0) > 0 && model.deletesSavedRow($0) } : nil
                let context = args.int("context", in: 0...1) { draw in
                    let windows = [killWindow(model, 0), killWindow(model, 1)]
                    let either = draw.chooseWeighted([6, 1])
                    if let story { return story }
                    if windows[0] > 0 && windows[1] > 0 { return either }
                    return windows[0] > 0 ? 0 : 1
                }
                // The kill comes `back` write operations before the end of the save's transaction (0: the last
                // operation inside, the simplest, reaching furthest into a faulty grouping's later transactions).
                let window = killWindow(model, context)
                let back = args.int("back", in: 0...63) { draw in
                    let last = draw.chooseBool(probability: 0.5)
                    let any = Int(draw.choose(upTo: UInt64(max(0, min(63, window - 1)))))
                    return last ? 0 : any
                }
                return .killedSave(context: context, back: back)
            },
        ]
    }

    /// How far back from the end of a save of context `c` a kill is drawn: two write operations per model the save
    /// writes or deletes (0 when a killed save is not modelled there, `GraphModel.killable`).
    static func killWindow(_ model: GraphModel, _ c: Int) -> Int { model.killable(c) ? 2 * (model.pendingWrites(c) + model.pendingRowDeletes(c)) : 0 }

    /// Create weights per entity: more of the destination a count limit still lacks (G10).
    static func createWeights(_ model: GraphModel) -> [UInt32] {
        var weights = model.schema.createWeights
        if let lacking = model.lacking { weights[lacking.destination] += 4 }
        // A deny rule without an inverse (G11): its two ends, until a model holds a pair there.
        if model.schema.hasInverselessDeny && !model.anyRef({ model.deniesWithoutInverse($0) }) {
            for (e, entity) in model.entities.enumerated() {
                for relationship in entity.relationships where GraphModel.isInverselessDeny(relationship) {
                    weights[e] += 3
                    weights[relationship.destination] += 3
                }
            }
        }
        return weights
    }

    /// A store action's precondition: no step after the store crashed.
    static func running(_ precondition: @escaping (GraphModel) -> Bool) -> (GraphModel) -> Bool { { !$0.crashed && precondition($0) } }

    /// A store action's arguments: a command that leaves earlier launches' models alone and, replayed, one the
    /// specification allows in the state the earlier steps leave.
    static func allowed(_ arguments: @escaping (inout Arguments, GraphModel) throws -> GraphCommand) -> (inout Arguments, GraphModel) throws -> GraphCommand {
        { args, model in
            let command = try arguments(&args, model)
            try args.require(model.leavesEarlierLaunches(command))
            if args.isReplaying { try args.require(model.allows(command)) }
            return command
        }
    }
}

extension GraphModel {
    var hasLive: Bool { refs.contains { $0 >= 0 } }
    func has(_ entity: Int) -> Bool { refs.contains { $0 >= 0 && objects[$0].entity == entity } }
    func entity(_ ref: Ref) -> Int { objects[refs[ref.index]].entity }
    func context(_ ref: Ref) -> Int { objects[refs[ref.index]].context }
    /// Whether object `o`'s entity has relationships, properties, settable attributes.
    func hasRelationships(_ o: Int) -> Bool { !entities[objects[o].entity].relationships.isEmpty }
    func hasProperties(_ o: Int) -> Bool { !(entities[objects[o].entity].attributes.isEmpty && entities[objects[o].entity].relationships.isEmpty) }
    func hasSettable(_ o: Int) -> Bool { !schema.settable[objects[o].entity].isEmpty }
}

extension Arguments {
    /// A context for a save, rollback, fetch or insert: 0 mostly.
    package mutating func context() -> Int { int("context", in: 0...1) { $0.chooseWeighted([6, 1]) } }

    /// A reference bound to a model (of an object `include` accepts); while a model's row was deleted by another
    /// context's save (the crash class's last stage), that model mostly.
    package mutating func live(_ label: String, _ model: GraphModel, where include: (Int) -> Bool = { _ in true }) throws(Unavailable) -> Ref {
        let stale = flag(probability: 0.6) && model.hasStale
        return try ref(label, among: model.refs.count, where: {
            model.refs[$0] >= 0 && include(model.refs[$0]) && (!stale || model.isStale(model.refs[$0]))
        })
    }

    /// A reference bound to a model of `entity`.
    package mutating func ref(_ label: String, of entity: Int, _ model: GraphModel) throws(Unavailable) -> Ref {
        try ref(label, among: model.refs.count, where: { model.refs[$0] >= 0 && model.objects[model.refs[$0]].entity == entity })
    }
}
