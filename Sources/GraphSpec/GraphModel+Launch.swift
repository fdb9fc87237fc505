import GraphFuzzEngine

/// How a relaunch on the SQLite backend damages a copy of the store file before it reopens the intact one (G26).
public enum StoreDamage: String, Sendable, CaseIterable {
    /// The file lost its contents (0 bytes).
    case emptied
    /// The file cut to its first 50 bytes, inside the 100-byte SQLite header.
    case cutInHeader
    /// The file's first 16 bytes (the SQLite magic string) overwritten.
    case overwrittenHeader
}

/// How a store file is refused at open (G26), named for what is wrong with it.
public enum StoreRefusal: String, Sendable, CaseIterable {
    /// An empty file, not taken for a new store.
    case emptyFile
    /// A file too short for what its header says (or for a header).
    case truncated
    /// A file that is not an SQLite database.
    case notADatabase
}

/// The relaunch and the killed save (G22–G27), each decided by the function that names it.
extension GraphModel {
    /// A new model holding relationships: a relaunch or a killed save is not generated then (a model once inserted
    /// and rolled back loses its relationships at a relaunch; the specification does not track which new models
    /// were inserted).
    public var hasTangledNewModel: Bool { objects.contains { $0.lifecycle == .new && $0.links.contains { !$0.isEmpty } } }

    /// How many models a save of context `c` writes (its pending inserts and changes).
    public func pendingWrites(_ c: Int) -> Int { objects.count { $0.context == c && ($0.inserted || $0.changed) } }

    /// How many models a save of context `c` deletes that have a row (its pending deletes of saved models).
    public func pendingRowDeletes(_ c: Int) -> Int { objects.count { $0.context == c && $0.deleted && $0.id?.permanent == true } }

    /// G25: whether a killed save of context `c` is modelled: it writes or deletes a row, and no tangled new model is
    /// in the way.
    public func killable(_ c: Int) -> Bool {
        !hasTangledNewModel && pendingWrites(c) + pendingRowDeletes(c) > 0
    }

    /// G22 (R22, R32): a relaunch closes the container: every model a context held (registered, detached or
    /// invalidated) is invalidated with no context and no relationships; its pending marks stay as they were. The
    /// saved rows stay. New models are untouched. G24: no temporary identifier resolves any more.
    mutating func relaunchStore() {
        for o in objects.indices where objects[o].lifecycle != .new {
            objects[o].lifecycle = .invalidated
            objects[o].context = -1
            objects[o].links = objects[o].links.map { _ in [] }
            objects[o].linkRules = []
            objects[o].committed = nil
        }
        savedAs = [:]
        launch += 1
    }

    /// G26: the refusal of a store file with `damage`: an emptied file is not taken for a new store, a file cut
    /// inside its header is truncated, one without SQLite's magic string is not a database. Nothing of the open
    /// store changes.
    public static func refusal(_ damage: StoreDamage) -> StoreRefusal {
        switch damage {
        case .emptied: return .emptyFile
        case .cutInHeader: return .truncated
        case .overwrittenHeader: return .notADatabase
        }
    }

    /// G22: a relaunch; it observes how many rows the reopened store holds and its rows (on disk, G26: every
    /// damaged copy of the file was refused).
    public mutating func relaunch() -> Prediction<GraphObservation> {
        relaunchStore()
        let count = rows.count { $0 != nil }
        return savedState(rule: GraphRules.relaunchKeepsSaved, damaged: parameters.backend == .sqlite) { .relaunched(count: count, $0) }
    }

    /// The save error of an interrupted save (Core Data's 134030, "an error occurred while saving").
    public static let interruptedCode = 134030

    /// G25: a save of context `c` (made by `save`: the store's, or an app's) killed before the end of its
    /// transaction, then a relaunch. The save leaves nothing: the rows are as before it (G25); its delete rules had
    /// run and stay pending, as after any failed save (G9). A save that was refused or failed never reached the store
    /// either, nor did one that writes nothing (a state a concurrent step may leave where the kill was drawn in
    /// another): it relaunches with its outcome (rows by G12, G19). A save that traps ends the app there, as every
    /// trap does: the kill never comes and no relaunch follows.
    public mutating func killedSave(_ c: Int, save: (inout GraphModel, Int) -> Prediction<GraphObservation>) -> Prediction<GraphObservation> {
        let before = self
        let outcome = save(&self, c)
        if outcome.value.isTrap { return outcome }
        let sqlite = parameters.backend == .sqlite
        guard case .saved = outcome.value, before.pendingWrites(c) + before.pendingRowDeletes(c) > 0 else {
            relaunchStore()
            var relaunched = outcome
            let state = SavedState(rows: canonicalRows(), damagedCopies: sqlite ? Self.damagedRefusals : nil)
            relaunched.value = outcome.value.with(state.decided(as: outcome.value.savedState))
            return sqlite ? relaunched.part(SavedState.damagedLabel, rule: GraphRules.refusesDamagedFile) : relaunched
        }
        self = before
        applyDeleteRules(c)
        relaunchStore()
        // The kill decides the outcome, the code and the rows; that the save had no issue to fail with is validation's.
        return savedState(rule: GraphRules.atomicSave, damaged: sqlite) { .saveFailed(code: Self.interruptedCode, issues: [], $0) }
            .part(GraphObservation.validationLabel, rule: GraphRules.validation)
    }

    /// G26: the refusal of every damaged copy, in `StoreDamage` order.
    static var damagedRefusals: [String] { StoreDamage.allCases.map { refusal($0).rawValue } }
}

extension GraphModel {
    /// Whether `command` leaves alone the models of earlier launches (invalidated, with no context), except to
    /// read them (`read`, `state`, `holdID`: reads trap, G22). Which of two traps a step mixing such a model with a
    /// new one raises first is not specified; those steps are not generated.
    public func leavesEarlierLaunches(_ command: GraphCommand) -> Bool {
        switch command {
        case .read, .state, .holdID: return true
        case let .insert(r, _), let .delete(r), let .set(r, _, _): return !isEarlierLaunch(r)
        case let .relate(a, _, b), let .unrelate(a, _, b): return !isEarlierLaunch(a) && !isEarlierLaunch(b)
        default: return true
        }
    }

    /// Whether `ref` names a model of an earlier launch (invalidated, no context).
    public func isEarlierLaunch(_ ref: Ref) -> Bool {
        guard let o = object(ref.index) else { return false }
        return objects[o].lifecycle == .invalidated && objects[o].context < 0
    }
}
