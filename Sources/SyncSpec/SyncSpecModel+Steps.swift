import GraphFuzzEngine

/// What each step observes, as the rules predict it: the arrays it reads and, during dual-write, the other
/// representation reading alike (S1). Each prediction names the rule of the step; a push's or fetch's carries, for
/// each item, the rule that decided whether it is in its array (its provenance: S4, or where its path changed it,
/// a refused save or a deletion over local edits S5, an item that waited for its project S7).
extension SyncSpecModel {
    /// The reads and, during dual-write, the same arrays read from the representation the app does not read.
    private func observing(_ reads: [SpecCollectionRead]) -> SyncObservation {
        SyncObservation(reads: reads, mirrors: isDualWrite ? reads : nil)
    }

    /// `prediction` of a push or fetch of `device` with the provenance of which items the arrays hold, crediting each
    /// rule it names.
    private func decided(_ prediction: Prediction<SyncObservation>, _ device: Int) -> Prediction<SyncObservation> {
        var decided = prediction, rules: [String] = []
        decided.value.presence = presence
        for rule in presence[device] where !rules.contains(rule) {
            rules.append(rule)
            decided = decided.part("", rule: rule)
        }
        return decided
    }

    /// Every array of every project present on each of `devices`.
    private func readAll(of devices: [Int]) -> [SpecCollectionRead] { devices.flatMap { readAll($0) } }

    /// A step's prediction under `rule`, whose mirrors must read like its reads (S1).
    private func predicting(_ reads: [SpecCollectionRead], _ rule: String, mirrors: String = SyncRules.dualWriteAgreement) -> Prediction<SyncObservation> {
        let prediction = Prediction(observing(reads), rule: rule)
        return isDualWrite && mirrors != rule ? prediction.part(SyncObservation.mirrorLabel, rule: mirrors) : prediction
    }

    /// An edit is visible at once on the device that made it, in its phase's read order (S9).
    private func edited(_ device: Int, _ project: Int, _ collections: [SpecCollection]) -> Prediction<SyncObservation> {
        predicting(collections.map { read(device, project, $0) }, SyncRules.localEditsPersist)
    }

    public mutating func predictAddItem(_ device: Int, project: Int, _ collection: SpecCollection, code: Int) -> Prediction<SyncObservation> {
        _ = addItem(device, project: project, collection, code: code)
        return edited(device, project, [collection])
    }

    public mutating func predictRemoveItem(_ device: Int, item: Int) -> Prediction<SyncObservation> {
        removeItem(device, item: item)
        return edited(device, Int(objects[item].owner), [objects[item].collection])
    }

    public mutating func predictMoveItem(_ device: Int, item: Int, to index: Int) -> Prediction<SyncObservation> {
        moveItem(device, item: item, to: index)
        return edited(device, Int(objects[item].owner), [objects[item].collection])
    }

    public mutating func predictSetQuantity(_ device: Int, item: Int, _ quantity: Int) -> Prediction<SyncObservation> {
        setQuantity(device, item: item, quantity)
        return edited(device, Int(objects[item].owner), [objects[item].collection])
    }

    public mutating func predictCreateProject(_ device: Int, kind: SpecProjectKind) -> Prediction<SyncObservation> {
        let project = createProject(device, kind: kind)
        return edited(device, project, kind.collections)
    }

    /// A push leaves the device's arrays as they were (S6: the device's own changes are what it pushes), except an
    /// item whose save the server refused (S5).
    public mutating func predictPush(_ device: Int) -> Prediction<SyncObservation> {
        push(device)
        return decided(predicting(readAll(device), SyncRules.lastWriterWins), device)
    }

    /// A fetch merges what other devices pushed: in phase 0 the blob travels whole (S8); with entities every other
    /// device's independent edit survives and orders merge by placement (S4), except where a deletion wins over local
    /// edits (S5) or items wait for their project (S7).
    public mutating func predictFetch(_ device: Int, deliver: [Int]?) -> Prediction<SyncObservation> {
        fetch(device, deliver: deliver)
        return decided(predicting(readAll(device), phase == 0 ? SyncRules.blobLosesUpdate : SyncRules.concurrentAdditionsSurvive), device)
    }

    /// The next phase loses no item and keeps the order, in both representations (S2).
    public mutating func predictMigrate() -> Prediction<SyncObservation> {
        rollOutNextPhase()
        return predicting(readAll(of: Array(0..<deviceCount)), SyncRules.migrationKeepsItems, mirrors: SyncRules.migrationKeepsItems)
    }

    /// Rolling reads back loses nothing, in both representations (S3).
    public mutating func predictRollbackReads() -> Prediction<SyncObservation> {
        rollbackReads()
        return predicting(readAll(of: Array(0..<deviceCount)), SyncRules.rollbackLosesNothing, mirrors: SyncRules.rollbackLosesNothing)
    }

    /// An app restart changes nothing the app reads (S9).
    public func predictRestart(_ device: Int) -> Prediction<SyncObservation> {
        predicting(readAll(device), SyncRules.localEditsPersist)
    }
}
