// graph-store-crasher: performs saves on an SQLite store and is killed inside them, to check that a killed
// save leaves the file exactly before or after the save. Not a user tool; the kill tests run it.
//
//   graph-store-crasher child PATH SEED SAVES KILL-AT GROUPING
//       runs the workload of SEED on the store at PATH, printing "saved K" after each save; with KILL-AT ≥ 0
//       sends itself SIGKILL just before write operation KILL-AT (counted from the opening)
//   graph-store-crasher campaign --kills N [--seed S] [--saves M] [--grouping G] [--random-time] [--dir D]
//       N kills of children at random points (seeded), each store reopened and compared with the states
//       before and after the interrupted save; prints one summary line; exit 0 when no store was between
//       states or refused, 1 otherwise, 2 on bad usage
import BooksTracker
import Foundation
import GraphStore

let schema = BooksTrackerSchema.schema(.local)

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("graph-store-crasher: \(message)\n".utf8))
    exit(2)
}

func grouping(_ name: String) -> SaveTransactions {
    guard let value = SaveTransactions(rawValue: name) else {
        fail("unknown grouping '\(name)' (one of \(SaveTransactions.allCases.map(\.rawValue).joined(separator: ", ")))")
    }
    return value
}

func runChild(_ arguments: [String]) {
    guard arguments.count == 5, let seed = UInt64(arguments[1]), let saves = Int(arguments[2]), let killAt = Int(arguments[3]) else {
        fail("child PATH SEED SAVES KILL-AT GROUPING")
    }
    do {
        let container = try ModelContainer(schema: schema, path: arguments[0])
        container.saveTransactions = grouping(arguments[4])
        if killAt >= 0 {
            container.writeInterruption = WriteInterruption(afterOperations: killAt, action: .perform { kill(getpid(), SIGKILL) })
        }
        try Workload(seed: seed, saves: saves).run(on: container) { k in
            let line = Array("saved \(k)\n".utf8)
            _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        }
        container.close()
    } catch {
        FileHandle.standardError.write(Data("graph-store-crasher: \(error)\n".utf8))
        exit(3)
    }
}

switch CommandLine.arguments.dropFirst().first {
case "child":
    runChild(Array(CommandLine.arguments.dropFirst(2)))
case "campaign":
    var campaign = Campaign()
    campaign.parse(Array(CommandLine.arguments.dropFirst(2)))
    exit(campaign.run() ? 0 : 1)
default:
    fail("usage: graph-store-crasher child … | campaign --kills N …")
}
