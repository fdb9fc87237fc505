import BooksTracker
import Foundation
import GraphFuzzEngine
import GraphSpec
import GraphStore

extension GraphSystem {
    /// The case's container on its backend, with the mutant's save grouping. Throws the store's `StoreError`,
    /// or a `HarnessFault` when the store could not create its file because the harness cannot write there.
    static func openContainer(_ config: GraphConfig, store: ModelConfiguration, faults: GraphFaults, stores: ScratchStores) throws
        -> (ModelContainer, ScratchStoreFile?) {
        let schema = BooksTrackerSchema.schema(config.schema == .local ? .local : .cloudKit,
                                               localEditionEntriesRule: faults.editionEntriesRule)
        let container: ModelContainer
        var file: ScratchStoreFile?
        switch config.backend {
        case .memory:
            container = ModelContainer(schema: schema, configuration: store)
        case .sqlite:
            let made = stores.file(prefix: "graphfuzz-graph")
            file = made
            do {
                container = try ModelContainer(schema: schema, configuration: store, path: made.path, image: storeImage(config, stores))
            } catch {
                made.remove()
                if let cause = made.unwritable() {
                    throw HarnessFault("cannot write the case's scratch store file \(made.path) (the store reported \(error))",
                                       underlying: cause)
                }
                if error.isMachineFailure { throw HarnessFault("the machine failed the case's new scratch store file: \(error)") }
                throw error
            }
        }
        container.saveTransactions = faults.saveTransactions
        return (container, file)
    }

    /// The empty store image of the case's schema (one of the two shipped schemas, made once per machine in its
    /// scratch folder), nil in memory: a case on the SQLite backend starts from a copy (the file the store would
    /// create at its path) and opens it with the production code, the schema's layout taken from the image (also
    /// for G26's damaged copies). A mutant's schema variant, or an image that could not be made or written, creates
    /// the file as before (`ModelContainer.init(schema:configuration:path:image:)`).
    static func storeImage(_ config: GraphConfig, _ stores: ScratchStores) -> EmptyStoreImage? {
        guard config.backend == .sqlite else { return nil }
        let local = config.schema == .local
        return stores.emptyImage(local ? "local" : "cloudKit", schema: BooksTrackerSchema.schema(local ? .local : .cloudKit),
                                 storeIdentifier: ModelConfiguration().storeIdentifier)
    }

    /// The relaunch commands: a relaunch reports how many rows the reopened store holds (G22); a killed save is
    /// `Library.save()` interrupted at its `point`-th write, then a relaunch (G25). A save that traps ends the app
    /// before the kill: the step observes the trap and does not relaunch (`damagedRefusals` stays nil).
    mutating func performLaunch(_ command: GraphCommand) throws(HarnessFault) -> GraphObservation {
        switch command {
        case .relaunch:
            if let failure = try relaunch() { return failure }
            return .count(container.rows.count)
        case let .killedSave(c, point):
            container.writeInterruption = WriteInterruption(afterOperations: container.writeOperations + point)
            let observation = try run(.save(context: c))
            if case .trap = observation { return observation }
            if let failure = try relaunch() { return failure }
            return observation
        default:
            preconditionFailure("not a launch command: \(command)")
        }
    }

    /// Closes the container and opens it again on the same store, with new contexts and libraries. A store that
    /// cannot be reopened is observed as a trap (`relaunchFailed`): the app could not start. (Unless the machine
    /// failed it, `StoreError.isMachineFailure`: a `HarnessFault`.)
    private mutating func relaunch() throws(HarnessFault) -> GraphObservation? {
        do {
            let old = container
            container = try old.relaunch()
            retired.append(old)
        } catch {
            if error.isMachineFailure { throw HarnessFault("the machine failed the store file at a relaunch: \(error)") }
            return .trap("relaunchFailed")
        }
        contexts = [ModelContext(container), ModelContext(container)]
        libraries = contexts.map { [policy] in Library(context: $0, policy: policy) }
        if let path = container.path { damagedRefusals = try damagedCopyRefusals(of: path) }
        return nil
    }

    /// G26: each damage's refusal (see `openDamagedCopy`). Throws a `HarnessFault` when the harness cannot read
    /// the store file or write a copy: its own I/O failed, never reported as the store's.
    func damagedCopyRefusals(of path: String) throws(HarnessFault) -> [String] {
        let data: [UInt8]
        do { data = try ScratchStoreFile.contents(of: path) } catch {
            throw HarnessFault("cannot read the store file \(path) to make damaged copies of it (G26)", underlying: error)
        }
        var refusals: [String] = []
        for damage in StoreDamage.allCases { refusals.append(try openDamagedCopy(data, damage)) }
        return refusals
    }

    /// G26: a container opened on a copy of the store file (`bytes`) damaged by `damage`, as an app relaunched on
    /// a damaged file would open it. Observes the kind of the typed error that refused it (with the path if the
    /// error names another file), or "opened"; a `HarnessFault` when the copy could not be written. The copy is
    /// removed; the case's own container and file are untouched.
    func openDamagedCopy(_ bytes: [UInt8], _ damage: StoreDamage) throws(HarnessFault) -> String {
        let copy = stores.file(prefix: "graphfuzz-damaged")
        defer { copy.remove() }
        // The damaged bytes: none, the first 50, or all with the first 16 written as zeros (not copied first).
        let damaged: [UInt8]
        var zeroed = 0
        switch damage {
        case .emptied: damaged = []
        case .cutInHeader: damaged = Array(bytes.prefix(50))
        case .overwrittenHeader:
            damaged = bytes
            zeroed = 16
        }
        do { try ScratchStoreFile.write(damaged, to: copy.path, zeroed: zeroed) } catch {
            throw HarnessFault("cannot write the \(damage.rawValue) copy of the store file to \(copy.path) (G26)", underlying: error)
        }
        do {
            let opened = try ModelContainer(schema: container.schema, configuration: container.configuration, path: copy.path,
                                            image: storeImage)
            opened.close()
            return "opened"
        } catch {
            if error.isMachineFailure { throw HarnessFault("the machine failed the \(damage.rawValue) copy of the store file (G26): \(error)") }
            return error.path == copy.path ? error.kind.rawValue : "\(error.kind.rawValue) naming \(error.path)"
        }
    }

    /// Traps recorded by every launch's container (the current one last).
    var trapCount: Int { retired.isEmpty ? container.traps.count : retired.reduce(container.traps.count) { $0 + $1.traps.count } }

    /// The `index`-th trap in launch order.
    func trap(at index: Int) -> StoreTrap {
        var index = index
        for old in retired {
            if index < old.traps.count { return old.traps[index] }
            index -= old.traps.count
        }
        return container.traps[index]
    }

    /// Closes the store and removes its file (tear-down).
    func closeStore() {
        container.close()
        storeFile?.remove()
    }
}
