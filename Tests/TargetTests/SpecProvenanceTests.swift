import CacheSpec
@testable import GraphFuzzEngine
import GraphSpec
import SyncSpec
import Testing

/// The specifications record, with each change they make, the rule that made it (provenance), and a mismatch is named
/// for the rule that last decided the part that differs.
@Suite("provenance of the specifications' predictions")
struct SpecProvenanceTests {
    static func rule<O: Equatable>(_ predicted: Prediction<O>, _ observed: O) -> String {
        predicted.mismatch(observed, trace: TraceStep("step")).rule
    }

    // MARK: Graph

    /// Parent (a title of 1…3 characters) with to-many `children` (inverse `parent`, delete rule `children`), and
    /// Child with to-one `parent` (nullify).
    static func family(children: SpecDeleteRule = .nullify) -> GraphModel {
        let schema = GraphSchema(name: "family", entities: [
            SpecEntity(name: "Parent", attributes: [SpecAttribute(name: "title", optional: false, defaultValue: .string("x"), length: 1...3)],
                       relationships: [SpecRelationship(name: "children", destination: 1, toMany: true, inverse: 0,
                                                        deleteRule: children, optional: true)]),
            SpecEntity(name: "Child", attributes: [],
                       relationships: [SpecRelationship(name: "parent", destination: 0, toMany: false, inverse: 0, deleteRule: .nullify, optional: true)]),
        ])
        return GraphModel(schema: schema, parameters: StoreParameters())
    }

    /// `v1` a parent holding child `v2`, both inserted in context 0 (and saved when `saved`).
    static func parentAndChild(_ model: inout GraphModel, saved: Bool) -> (parent: Int, child: Int) {
        let parent = model.newObject(0), child = model.newObject(1)
        model.bind(0, parent)
        model.bind(1, child)
        _ = model.insert(parent, 0)
        _ = model.insert(child, 0)
        _ = model.relate(child, 0, parent)
        if saved { _ = model.storeSave(0) }
        return (parent, child)
    }

    @Test("G9: the pair a failed save's nullify removed stays the delete rules' until it is related again (G7)")
    func pendingNullify() {
        var model = Self.family()
        let (parent, child) = Self.parentAndChild(&model, saved: false)
        _ = model.delete(child)
        _ = model.setValue(parent, 0, .string(""))
        let failed = model.storeSave(0)
        guard case .saveFailed = failed.value else { Issue.record("expected a failed save, got \(failed.value)"); return }
        // The deleted child keeps its parent; the parent's children lost it to the child's nullify, pending.
        let again = model.predict(.relate(Ref(1), relationship: 0, target: Ref(0)))
        #expect(again.value == .related(inverse: 0))
        #expect(again.rule == GraphRules.deleteRulesAtSave)
        let unrelated = model.predict(.unrelate(Ref(1), relationship: 0, target: Ref(0)))
        #expect(unrelated.rule == GraphRules.deleteRulesAtSave)
        let related = model.predict(.relate(Ref(1), relationship: 0, target: Ref(0)))
        #expect(related.value == .related(inverse: 1) && related.rule == GraphRules.inverses)
    }

    @Test("G9, G19: a save names the rows its delete rules changed (or removed) for them, every other row for itself")
    func savedRows() throws {
        var model = Self.family()
        let (_, child) = Self.parentAndChild(&model, saved: true)
        _ = model.delete(child)
        let saved = model.storeSave(0)
        #expect(saved.rule == GraphRules.savedSnapshot)
        // The parent's row lost the child to the child's nullify: G9. The child's row went with the app's delete: G19.
        let state = try #require(saved.value.savedState)
        let childName = model.rowName(try #require(model.objects[child].id))
        var observed = state
        observed.rows[0].links = [[childName]]
        #expect(Self.rule(saved, .saved(observed)) == GraphRules.deleteRulesAtSave)
        observed = state
        observed.rows.append(CanonicalRow(name: childName, entity: 1, entityName: "Child", values: [], links: [[]]))
        #expect(Self.rule(saved, .saved(observed)) == GraphRules.savedSnapshot)
        // A row the cascade removed is the cascade's.
        var cascading = Self.family(children: .cascade)
        let (parent, cascaded) = Self.parentAndChild(&cascading, saved: true)
        _ = cascading.delete(parent)
        let removed = cascading.storeSave(0)
        let cascadedName = cascading.rowName(try #require(cascading.objects[cascaded].id))
        let kept = SavedState(rows: [CanonicalRow(name: cascadedName, entity: 1, entityName: "Child", values: [], links: [[]])])
        #expect(Self.rule(removed, .saved(kept)) == GraphRules.deleteRulesAtSave)
    }

    @Test("G12, G11: a failed save's rows are G12's whatever its outcome's rule; a deny part it does not list is its deny check's")
    func failedSave() throws {
        var model = Self.family(children: .deny)
        let (parent, _) = Self.parentAndChild(&model, saved: true)
        _ = model.delete(parent)
        let failed = model.storeSave(0)
        guard case let .saveFailed(code, issues, state) = failed.value else { Issue.record("expected a failed save"); return }
        #expect(code == 1600 && failed.rule == GraphRules.denyDelete)
        var rows = state
        rows.rows[0].values = [.string("y")]
        #expect(Self.rule(failed, .saveFailed(code: code, issues: issues, rows)) == GraphRules.failedSaveKeepsAll)
        // A save failing its validation (G10) whose store also raises a deny: that part is the deny check's (G11).
        var other = Self.family(children: .deny)
        let lone = other.newObject(0)
        other.bind(0, lone)
        _ = other.insert(lone, 0)
        _ = other.setValue(lone, 0, .string(""))
        let invalid = other.storeSave(0)
        guard case let .saveFailed(_, validation, kept) = invalid.value else { Issue.record("expected a failed save, got \(invalid.value)"); return }
        #expect(invalid.rule == GraphRules.validation)
        let denied = GraphObservation.saveFailed(code: 1560, issues: validation + [IssueName(code: 1600, entity: "Parent", key: "children", object: nil)], kept)
        #expect(Self.rule(invalid, denied) == GraphRules.denyDelete)
    }

    // MARK: Cache

    @Test("C3, C8, C9, C2: a folder's key names the rule that last decided whether its file is there")
    func cacheFolder() throws {
        var model = CacheModel()
        _ = model.failedSet(instance: 0, key: 1, value: CacheValueSpec(tag: 1, length: 1), failsAtRename: false)
        let set = model.set(instance: 0, key: 0, value: CacheValueSpec(tag: 2, length: 1))
        guard case .folders(let folders) = set.value else { Issue.record("expected folders"); return }
        func flipping(_ key: Int) -> CacheObservation {
            var folder = folders[0]
            folder.files ^= 1 << UInt8(key)
            return .folders([folder])
        }
        #expect(Self.rule(set, flipping(0)) == CacheRules.diskReadBack)
        #expect(Self.rule(set, flipping(1)) == CacheRules.diskFaultsHidden)
        #expect(Self.rule(set, flipping(2)) == CacheRules.keyIdentity)
        let cleaned = model.cleanUp(instance: 0)
        guard case .folders(let after) = cleaned.value else { Issue.record("expected folders"); return }
        var folder = after[0]
        folder.files ^= 1
        #expect(Self.rule(cleaned, .folders([folder])) == CacheRules.cleanupExact)
        #expect(model.hasFile(identifier: 0, key: 1).rule == CacheRules.diskFaultsHidden)
    }

    // MARK: Sync

    @Test("S5, S7: a push or fetch names, for the item that differs, the rule its path decided it by, else S4")
    func syncItems() {
        let (a, b, log) = (0, 1, 0)
        var model = SyncSpecModel(granularity: .record)
        model.rollOutNextPhase()
        // S5: B edits an item A deleted and pushed; B's push is refused and B drops it.
        let x = model.addItem(a, project: log, .glassItems, code: 0)
        let y = model.addItem(a, project: log, .glassItems, code: 1)
        model.push(a)
        model.fetch(b, deliver: nil)
        model.setQuantity(b, item: x, 3)
        model.removeItem(a, item: x)
        model.push(a)
        let push = model.predictPush(b)
        func without(_ item: Int, _ prediction: Prediction<SyncObservation>) -> SyncObservation {
            var observed = prediction.value
            observed.reads = observed.reads.map { read in
                var read = read
                read.items.removeAll { $0.item == Int32(item) }
                return read
            }
            observed.mirrors = observed.mirrors.map { _ in observed.reads }
            return observed
        }
        var kept = push.value
        kept.reads = kept.reads.map { read in
            guard read.project == Int32(log), read.collection == .glassItems else { return read }
            var read = read
            read.items.insert(SpecItemRead(item: Int32(x), quantity: 3, code: 0), at: 0)
            return read
        }
        kept.mirrors = kept.mirrors.map { _ in kept.reads }
        #expect(Self.rule(push, kept) == SyncRules.deletionWins)
        #expect(Self.rule(push, without(y, push)) == SyncRules.concurrentAdditionsSurvive)
        // S7: an item that waited for its project appears with it, whatever else the fetch brings to that array.
        let project = model.createProject(b, kind: .step)
        let orphan = model.addItem(b, project: project, .glassItems, code: 2)
        model.push(b)
        let later = model.addItem(b, project: project, .glassItems, code: 3)
        model.push(b)
        let fetch = model.predictFetch(a, deliver: [orphan, project, later])
        #expect(Self.rule(fetch, without(orphan, fetch)) == SyncRules.orphanWaits)
        #expect(Self.rule(fetch, without(later, fetch)) == SyncRules.concurrentAdditionsSurvive)
    }
}
