package import FaultPoints

extension ModelContext {
    /// Saves: runs delete rules (R19), validates every inserted, changed and deleted model and aggregates the
    /// failures (R25, 1560), and on success writes the rows, makes identifiers permanent (R2) and detaches the
    /// deleted models (R18). A failed save changes nothing in the container and keeps every pending change (R22).
    public func save() throws(SaveError) {
        guard hasChanges else { return }
        guard checkTraps() else { return }
        if !behavior.faults.selects(.deleteRulesAtDelete) { propagateDeletes(from: 0) }
        let issues = validate()
        if !issues.isEmpty {
            if behavior.faults.selects(.partialFailedSave) { writePartially() }
            throw SaveError(issues: issues)
        }
        try commit()
    }

    /// Conditions under which the save stops the process: a pending model or a link whose backing data is
    /// gone (R28), two pending inserts with one unique value (R7).
    private func checkTraps() -> Bool {
        if let model = firstInvalidated(inserted) ?? firstInvalidated(changed) ?? firstInvalidated(deleted) {
            model.raise(.invalidated(model.describeID()))
            return false
        }
        if let target = firstInvalidatedLink(inserted) ?? firstInvalidatedLink(changed) ?? firstInvalidatedLink(deleted) {
            target.raise(.invalidated(target.describeID()))
            return false
        }
        guard container.schema.hasUniqueAttributes else { return true }
        for entity in container.schema.entities.indices {
            for (a, attribute) in container.schema.entities[entity].attributes.enumerated() where attribute.isUnique {
                var seen: Set<AttributeValue> = []
                for model in inserted where model.entityIndex == entity && !model.isPendingDelete && !model.values[a].isNull {
                    if !seen.insert(model.values[a]).inserted {
                        container.raise(.remapped(model.describeID()))
                        return false
                    }
                }
            }
        }
        return true
    }

    private func firstInvalidated(_ models: [PersistentModel]) -> PersistentModel? {
        models.first { $0.lifecycle == .invalidated }
    }

    /// The first related model of `models` whose backing data is gone.
    private func firstInvalidatedLink(_ models: [PersistentModel]) -> PersistentModel? {
        for model in models {
            for relationship in model.links {
                for target in relationship where target.lifecycle == .invalidated { return target }
            }
        }
        return nil
    }

    /// Every validation failure of the pending changes.
    func validate() -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        for model in deleted {
            let schema = container.schema.entities[model.entityIndex]
            for (r, relationship) in schema.relationships.enumerated() where relationship.deleteRule == .deny && enforcesDeny(relationship) {
                if model.links[r].contains(where: { !$0.isPendingDelete }) {
                    issues.append(ValidationIssue(code: 1600, entity: schema.name, key: relationship.name, object: model.identifier))
                }
            }
        }
        for model in inserted where !model.isPendingDelete { validate(model, into: &issues) }
        for model in changed where !model.isPendingDelete && !model.isPendingInsert { validate(model, into: &issues) }
        return issues
    }

    /// R21: a deny rule is enforced, unless it declares no inverse and `StoreBehavior.denyWithoutInverse` says such
    /// rules are not.
    private func enforcesDeny(_ relationship: RelationshipSchema) -> Bool {
        relationship.inverse != nil || behavior.denyWithoutInverse == .enforced || behavior.faults.selects(.denyWithoutInverseEnforced)
    }

    private func validate(_ model: PersistentModel, into issues: inout [ValidationIssue]) {
        let schema = container.schema.entities[model.entityIndex]
        func add(_ code: Int, _ key: String) {
            issues.append(ValidationIssue(code: code, entity: schema.name, key: key, object: model.identifier))
        }
        for (a, attribute) in schema.attributes.enumerated() {
            switch model.values[a] {
            case .null:
                if !attribute.isOptional { add(1570, attribute.name) }
            case .int(let value):
                if let range = attribute.range {
                    if value > range.upperBound { add(1610, attribute.name) }
                    if value < range.lowerBound { add(1620, attribute.name) }
                }
            case .string(let value):
                if let length = attribute.length {
                    let count = value.count
                    if count > length.upperBound { add(1660, attribute.name) }
                    if count < length.lowerBound { add(1670, attribute.name) }
                }
            case .strings(let values):
                if let length = attribute.length {
                    if values.count > length.upperBound { add(1660, attribute.name) }
                    if values.count < length.lowerBound { add(1670, attribute.name) }
                }
            case .bool:
                break
            }
        }
        for (r, relationship) in schema.relationships.enumerated() {
            let count = model.links[r].count
            if relationship.isToMany {
                if let min = relationship.minCount, count < min, count > 0 || !relationship.isOptional { add(1580, relationship.name) }
                if let max = relationship.maxCount, count > max { add(1590, relationship.name) }
            } else if count == 0, !relationship.isOptional {
                add(1570, relationship.name)
            }
        }
    }

    /// The `partialFailedSave` fault: updates and deletes of saved models reach the container although the save fails.
    private func writePartially() {
        var plan = SavePlan()
        for model in deleted where !model.isPendingInsert {
            if let id = model.identifier, !id.isTemporary { plan.deletions.append((id, model.entityIndex)) }
        }
        for model in changed where !model.isPendingDelete && !model.isPendingInsert {
            guard let id = model.identifier, !id.isTemporary else { continue }
            plan.rows.append((id, model.entityIndex, model.values, model.links.map { $0.compactMap(\.identifier) }))
        }
        if !plan.isEmpty { try? container.write(plan) }
    }

    /// Writes the save to the store in one transaction (or the container's faulty grouping), then makes
    /// identifiers permanent, detaches deleted models and clears the pending lists. When the store cannot
    /// write, no model changes and every pending change stays.
    private func commit() throws(SaveError) {
        // Plan first: the identifiers the inserts take, the rows to remove and to write.
        let countersBefore = container.nextPermanent
        var written: [PersistentModel] = []
        var planned: [PersistentModel] = []
        // R7: an insert that takes a saved row over replaces the context's model of that row, which is not written.
        var replaced: [PersistentModel] = []
        for model in inserted where !model.isPendingDelete {
            if let old = model.identifier, old.isTemporary {
                if let row = upsertTarget(model) {
                    if planned.contains(where: { $0.plannedIdentifier == row }) {
                        // Two inserts of one save taking one row: the store cannot give both its identifier.
                        for model in planned { model.plannedIdentifier = nil }
                        container.nextPermanent = countersBefore
                        container.raise(.remapped(model.describeID()))
                        return
                    }
                    if let holder = registry[row], holder !== model { replaced.append(holder) }
                    model.plannedIdentifier = row
                } else {
                    model.plannedIdentifier = container.permanentID(model.entityIndex)
                }
                planned.append(model)
            }
            written.append(model)
        }
        defer { for model in planned { model.plannedIdentifier = nil } }
        for model in changed where !model.isPendingDelete && !model.isPendingInsert && !replaced.contains(where: { $0 === model }) {
            written.append(model)
        }
        var plan = SavePlan()
        var removed: [PersistentIdentifier] = []
        for model in deleted where !model.isPendingInsert {
            if let id = model.identifier, !id.isTemporary, container.row(id) != nil {
                plan.deletions.append((id, model.entityIndex))
                removed.append(id)
            }
        }
        // A deleted pending insert of this context is discarded by the save: links to it are not written.
        func identifier(_ model: PersistentModel) -> PersistentIdentifier? {
            if model.isPendingInsert, model.isPendingDelete, model.modelContext === self { return nil }
            return model.plannedIdentifier ?? model.identifier
        }
        for model in written {
            guard let id = identifier(model), !id.isTemporary else { continue }
            plan.rows.append((id, model.entityIndex, model.values, model.links.map { $0.compactMap(identifier) }))
        }
        if container.nextPermanent != container.storage.counters { plan.counters = container.nextPermanent }
        do {
            try container.write(plan)
        } catch {
            container.nextPermanent = countersBefore
            throw SaveError(storeFailure: error)
        }

        // The store holds the save: update the models.
        for model in replaced { leaveAfterUpsert(model) }
        for model in inserted where !model.isPendingDelete {
            if let old = model.identifier, old.isTemporary, let id = model.plannedIdentifier {
                registry[old] = nil
                registry[id] = model
                if behavior.temporaryIDAfterSave == .resolves { container.remapped[old] = id }
                model.identifier = id
            }
        }
        for model in deleted {
            if model.isPendingInsert {
                discard(model)
                continue
            }
            if let id = model.identifier { registry[id] = nil }
            model.modelContext = nil
            model.lifecycle = .detached
            model.isPendingDelete = false
            model.isChangeTracked = false
            model.committed = nil
        }
        for model in written {
            model.isPendingInsert = false
            model.isChangeTracked = false
            model.committed = nil
        }
        inserted = []
        changed = []
        deleted = []
        if !removed.isEmpty { container.rowsDeleted(removed, by: self) }
    }

    /// R7: a pending insert whose unique value matches a saved row takes that row over (upsert): the first unique
    /// attribute, in the entity's order, whose value a saved row holds, and of those rows the lowest-numbered;
    /// a row this save deletes is not taken over.
    private func upsertTarget(_ model: PersistentModel) -> PersistentIdentifier? {
        guard container.schema.hasUniqueAttributes else { return nil }
        let schema = container.schema.entities[model.entityIndex]
        for (a, attribute) in schema.attributes.enumerated() where attribute.isUnique && !model.values[a].isNull {
            let matches = container.rowIDs(model.entityIndex).filter { id in
                container.row(id)?.values[a] == model.values[a] && !deleted.contains { $0.identifier == id }
            }
            if let match = matches.min(by: { $0.number < $1.number }), !behavior.faults.selects(.uniqueInsertsNewRow) { return match }
        }
        return nil
    }

    /// R7: the context's model of a row that an insert took over leaves the context, its pending changes unwritten:
    /// as a model whose deletion was saved, or as one whose backing data is gone (`StoreBehavior.replacedByUpsert`).
    private func leaveAfterUpsert(_ model: PersistentModel) {
        changed.removeAll { $0 === model }
        model.modelContext = nil
        model.lifecycle = behavior.replacedByUpsert == .detached ? .detached : .invalidated
        model.isChangeTracked = false
        model.committed = nil
    }
}

extension Fault<StoreBehavior> {
    /// Mutant `store-failed-save-partial`: a failed save still writes the changed rows, and removes the deleted
    /// rows, of saved models (G12).
    package static var partialFailedSave: Self { Self() }
    /// Mutant `store-unique-inserts-new-row`: an insert whose unique value a saved row holds gets a new row instead
    /// of taking that row over (G28).
    package static var uniqueInsertsNewRow: Self { Self() }
    /// Mutant `store-deny-without-inverse-enforced`: a deny rule without an inverse is enforced whatever
    /// denyWithoutInverse says (G11).
    package static var denyWithoutInverseEnforced: Self { Self() }
}
