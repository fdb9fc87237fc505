import BooksTracker
import Foundation
import GraphSpec
import GraphStore

/// The store file of an SQLite case: in /dev/shm when the machine has it (the rules need a real SQLite file, not
/// a slow disk), else the temporary directory. The name is unique per case; it never reaches a report.
struct StoreFile {
    let path: String

    static func make() -> StoreFile {
        let shm = "/dev/shm"
        var isDirectory: ObjCBool = false
        let directory = FileManager.default.fileExists(atPath: shm, isDirectory: &isDirectory) && isDirectory.boolValue
            && FileManager.default.isWritableFile(atPath: shm) ? shm : NSTemporaryDirectory()
        let parent = directory.hasSuffix("/") ? directory : directory + "/"
        return StoreFile(path: parent + "graphfuzz-graph-" + UUID().uuidString + ".sqlite")
    }

    /// Removes the file and SQLite's companions.
    func remove() {
        for suffix in ["", "-wal", "-shm", "-journal", ".creating", ".creating-wal", ".creating-shm", ".creating-journal"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }
}

extension GraphSystem {
    /// The case's container on its backend, with the mutant's save grouping.
    static func openContainer(_ config: GraphConfig, store: ModelConfiguration, mutant: GraphMutant?) throws(StoreError)
        -> (ModelContainer, StoreFile?) {
        let schema = BooksTrackerSchema.schema(config.schema == .local ? .local : .cloudKit,
                                               localEditionEntriesRule: GraphMutant.editionEntriesRule(mutant))
        let container: ModelContainer
        var file: StoreFile?
        switch config.backend {
        case .memory:
            container = ModelContainer(schema: schema, configuration: store)
        case .sqlite:
            let made = StoreFile.make()
            file = made
            do {
                container = try ModelContainer(schema: schema, configuration: store, path: made.path)
            } catch {
                made.remove()
                throw error
            }
        }
        container.saveTransactions = GraphMutant.saveTransactions(mutant)
        return (container, file)
    }

    /// The relaunch commands: a relaunch reports how many rows the reopened store holds (G22); a killed save is
    /// `Library.save()` interrupted at its `point`-th write, then a relaunch (G25).
    mutating func performLaunch(_ command: GraphCommand) -> GraphObservation {
        switch command {
        case .relaunch:
            if let failure = relaunch() { return failure }
            return .count(container.rows.count)
        case let .killedSave(c, point):
            container.writeInterruption = WriteInterruption(afterOperations: container.writeOperations + point)
            let observation = run(.save(context: c))
            if case .trap = observation { return observation }
            if let failure = relaunch() { return failure }
            return observation
        default:
            preconditionFailure("not a launch command: \(command)")
        }
    }

    /// Closes the container and opens it again on the same store, with new contexts and libraries. A store that
    /// cannot be reopened is observed as a trap (`relaunchFailed`): the app could not start.
    private mutating func relaunch() -> GraphObservation? {
        do {
            let old = container
            container = try old.relaunch()
            retired.append(old)
        } catch {
            return .trap("relaunchFailed")
        }
        contexts = [ModelContext(container), ModelContext(container)]
        libraries = contexts.map { [policy] in Library(context: $0, policy: policy) }
        return nil
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
