import GraphFuzzEngine

/// The relaunch and the killed save (G22–G25, G27), each decided by the function that names it.
extension GraphModel {
    /// Whether a relaunch or killed save may run: a killed save's point lies inside its transaction (G25), and its
    /// context has no pending delete (delete rules run inside a save and stay pending when it fails, G9; a kill
    /// there is not modelled). A relaunch needs no new model holding relationships (a model once inserted and
    /// rolled back loses them at a relaunch; the specification does not track which new models were inserted).
    func allowsLaunch(_ command: GraphCommand) -> Bool {
        let tangled = objects.contains { object in object.lifecycle == .new && object.links.contains { !$0.isEmpty } }
        switch command {
        case .relaunch: return !tangled
        case let .killedSave(c, point):
            return !tangled && (0...1).contains(c) && point >= 0 && point < writeWindow(c)
        default: return false
        }
    }

    /// G25: how many write steps of a save of context `c` surely lie inside its transaction. The save writes each
    /// inserted or changed row with its relationships (every entity has one) between a begin and a commit; a kill
    /// before the commit leaves the store as before. 0: nothing to write, or a kill here is not generated (a
    /// pending delete in `c`, or a new model holding relationships; see `allowsLaunch`).
    public func writeWindow(_ c: Int) -> Int {
        var written = 0
        for object in objects {
            if object.lifecycle == .new && object.links.contains(where: { !$0.isEmpty }) { return 0 }
            guard object.context == c else { continue }
            if object.deleted { return 0 }
            if object.inserted || object.changed { written += 1 }
        }
        return 2 * written
    }

    /// G22 (R22, R32): a relaunch closes the container: every model a context held (registered, detached or
    /// invalidated) is invalidated with no context and no relationships; its pending marks stay as they were. The
    /// saved rows stay. New models are untouched. G24: no temporary identifier resolves any more.
    mutating func relaunchStore() {
        for o in objects.indices where objects[o].lifecycle != .new {
            objects[o].lifecycle = .invalidated
            objects[o].context = -1
            objects[o].links = objects[o].links.map { _ in [] }
            objects[o].committed = nil
        }
        savedAs = [:]
        heldBeforeRelaunch = held.count
        relaunches += 1
        relaunchedNow = true
        numberedBeforeRelaunch = numberedEntities.count
    }

    /// G27: the rows the last save numbered that have an earlier launch's row of their entity to be numbered
    /// above (empty when the rule decides nothing there).
    public var numberedAfterRelaunch: [Int] {
        guard relaunches > 0 else { return [] }
        let earlier = numberedEntities.prefix(numberedBeforeRelaunch)
        return numberedByLastSave.filter { earlier.contains(numberedEntities[$0]) }
    }

    /// G26: whether the step just relaunched an on-disk store, so that every damaged copy of its file is refused
    /// (a relaunch also tries each `StoreDamage` of the file; the case goes on with the intact one).
    public var refusesDamagedCopies: Bool { relaunchedNow && config.backend == .sqlite }

    /// The permanent identifier of row number `number` (its entity kept after the row is deleted).
    public func numberedID(_ number: Int) -> SpecID { SpecID(permanent: true, number: number, entity: numberedEntities[number]) }

    /// The rule that broke when the saved rows differ after this step, from the rows that differ: after a save,
    /// G9 when a differing row is one the save's delete rules changed (a cascaded or a nullified model), else the
    /// rule the comparison decides (`rowsRule`).
    public func rowsBrokenRule(differing: [ObjectName]) -> String? {
        guard let decided = rowsRule else { return nil }
        guard decided == GraphRules.savedSnapshot else { return decided }
        // By reference: a cascaded pending insert is discarded (no row, `v2`) where a faulty store saved it (`r:v2`).
        let touched = deleteRulesTouched.map { name($0).ref }
        return differing.contains { $0.ref >= 0 && touched.contains($0.ref) } ? GraphRules.deleteRulesAtSave : decided
    }

    /// The rule the comparison of the saved rows after this step decides: G19 after a save, G12 after a failed
    /// one, G25 after a killed one, G22 after a relaunch; nil after a step that does not compare them.
    public var rowsRule: String? {
        guard checkRows else { return nil }
        switch lastSave {
        case .saved: return GraphRules.savedSnapshot
        case .failed: return GraphRules.failedSaveKeepsAll
        case .killed: return GraphRules.atomicSave
        case .none: return GraphRules.relaunchKeepsSaved
        }
    }

    /// G26: the typed error (`StoreError.Kind`) that refuses a store file with `damage`: an emptied file is not
    /// taken for a new store, a file cut inside its header is truncated, one without SQLite's magic string is not
    /// a database. Nothing of the open store changes.
    public static func refusal(_ damage: StoreDamage) -> String {
        switch damage {
        case .emptied: return "emptyFile"
        case .cutInHeader: return "truncated"
        case .overwrittenHeader: return "notADatabase"
        }
    }

    /// G25: a save killed at `point`, then a relaunch. Inside the transaction the save leaves nothing: the
    /// specification is as before it (a refused or failed save never reached the store either). A save that traps
    /// ends the app there, as every trap does (the case ends): the kill never comes and no relaunch follows, so the
    /// step decides nothing of G22, G25 or G26.
    mutating func killedSave(_ c: Int) -> (GraphObservation, String) {
        let before = self
        let (observation, rule) = step(.save(context: c))
        if observation.isTrap { return (observation, rule) }
        guard observation == .saved else {
            relaunchStore()
            return (observation, rule)
        }
        self = before
        relaunchStore()
        (lastSave, checkRows) = (.killed, true)
        return (.saveFailed(code: Self.interruptedCode, issues: []), GraphRules.atomicSave)
    }

    /// The save error of an interrupted save (Core Data's 134030, "an error occurred while saving").
    public static let interruptedCode = 134030

    /// The relaunch commands' predictions: a relaunch observes how many rows the reopened store holds (G22).
    mutating func predictLaunch(_ command: GraphCommand) -> (GraphObservation, String) {
        switch command {
        case .relaunch:
            relaunchStoreAndCheck()
            return (.count(rows.count { $0 != nil }), GraphRules.relaunchKeepsSaved)
        case let .killedSave(c, _):
            return killedSave(c)
        default:
            preconditionFailure("not a launch command: \(command)")
        }
    }

    private mutating func relaunchStoreAndCheck() {
        relaunchStore()
        (lastSave, checkRows) = (.none, true)
    }

    /// G23, G24: the rule deciding a lookup of an identifier held before the last relaunch; nil for others.
    public func launchRule(_ command: GraphCommand) -> String? {
        guard case let .lookup(_, h, _, _) = command, h < heldBeforeRelaunch, let id = held[h] else { return nil }
        return id.permanent ? GraphRules.permanentAcrossRelaunch : GraphRules.temporaryAcrossRelaunch
    }
}

extension GraphModel {
    /// Whether `command` leaves alone the models of earlier launches (invalidated, with no context), except to
    /// read them (`read`, `state`, `holdID`: reads trap, G22). Which of two traps a domain operation mixing such a
    /// model with a new one raises first is not specified; those steps are not generated.
    public func leavesEarlierLaunches(_ command: GraphCommand) -> Bool {
        func earlier(_ ref: Ref) -> Bool {
            guard let o = object(ref.index) else { return false }
            return objects[o].lifecycle == .invalidated && objects[o].context < 0
        }
        switch command {
        case .read, .state, .holdID: return true
        case let .insert(r, _), let .delete(r), let .set(r, _, _), let .userEntry(r), let .validate(r): return !earlier(r)
        case let .relate(a, _, b), let .unrelate(a, _, b), let .owned(_, a, b, _), let .acquire(a, b): return !earlier(a) && !earlier(b)
        case let .wishlist(_, w, _): return !earlier(w)
        default: return true
        }
    }
}

/// How a relaunch on the SQLite backend damages a copy of the store file before it reopens the intact one (G26).
public enum StoreDamage: String, Sendable, CaseIterable {
    /// The file lost its contents (0 bytes).
    case emptied
    /// The file cut to its first 50 bytes, inside the 100-byte SQLite header.
    case cutInHeader
    /// The file's first 16 bytes (the SQLite magic string) overwritten.
    case overwrittenHeader
}
