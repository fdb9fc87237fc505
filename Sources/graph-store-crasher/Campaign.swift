import Foundation
import GraphStore

/// Kills children at seeded points and checks every reopened store.
struct Campaign {
    var kills = 10
    var seed: UInt64 = 1
    var saves = 6
    var grouping = SaveTransactions.single
    var randomTime = false
    var directory = NSTemporaryDirectory()

    mutating func parse(_ arguments: [String]) {
        var index = 0
        func value() -> String {
            index += 1
            guard index < arguments.count else { fail("\(arguments[index - 1]) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--kills": kills = Int(value()) ?? { fail("--kills takes a number") }()
            case "--seed": seed = UInt64(value()) ?? { fail("--seed takes a number") }()
            case "--saves": saves = Int(value()) ?? { fail("--saves takes a number") }()
            case "--grouping": grouping = graph_store_crasher.grouping(value())
            case "--random-time": randomTime = true
            case "--dir": directory = value()
            default: fail("unknown argument '\(arguments[index])'")
            }
            index += 1
        }
    }

    /// Runs the campaign and prints its summary; whether every store was before or after its interrupted save.
    func run() -> Bool {
        let path = directory + "/crasher-\(getpid()).store"
        var random = SplitMix(state: seed)
        var counts = (killed: 0, finished: 0, before: 0, after: 0, between: 0, refused: 0, insideSave: 0)
        var duration = 0.05
        if randomTime {
            let start = Date()
            _ = launch(path: path, seed: seed, killAt: -1, killAfter: nil)
            duration = max(0.005, Date().timeIntervalSince(start))
        }
        let clock = Date()
        for kill in 0..<kills {
            let workloadSeed = seed &* 1000 &+ UInt64(kill)
            let workload = Workload(seed: workloadSeed, saves: saves)
            let states: [UInt64]
            let boundaries: [Int]
            do {
                (states, boundaries) = try expected(workload)
            } catch {
                fail("the workload of seed \(workloadSeed) failed in memory: \(error)")
            }
            let killAt = randomTime ? -1 : random.below(max(1, boundaries.last ?? 1))
            // Uniform over the first 70 % of a whole run: the rest is mostly the child's exit.
            let delay = randomTime ? duration * Double(random.below(700)) / 1000 : nil
            let outcome = launch(path: path, seed: workloadSeed, killAt: killAt, killAfter: delay)
            guard outcome.killed else {
                counts.finished += 1
                continue
            }
            counts.killed += 1
            if !randomTime, !boundaries.contains(killAt) { counts.insideSave += 1 }
            let lastSaved = outcome.saved
            do {
                let container = try ModelContainer(schema: schema, path: path)
                let state = fingerprint(container.rows)
                container.close()
                if state == states[lastSaved] {
                    counts.before += 1
                } else if lastSaved + 1 < states.count, state == states[lastSaved + 1] {
                    counts.after += 1
                } else {
                    counts.between += 1
                    print("kill \(kill) (seed \(workloadSeed), kill at \(killAt), \(lastSaved) saves done): the store is between states")
                }
            } catch {
                counts.refused += 1
                print("kill \(kill) (seed \(workloadSeed)): the reopened store was refused: \(error)")
            }
        }
        removeStore(path)
        let seconds = Date().timeIntervalSince(clock)
        print("kills: \(counts.killed) finished: \(counts.finished) before: \(counts.before) after: \(counts.after) "
              + "between: \(counts.between) refused: \(counts.refused) inside-save: \(counts.insideSave) "
              + "grouping: \(grouping.rawValue) mode: \(randomTime ? "random-time" : "operation") "
              + "seconds: \(String(format: "%.1f", seconds))")
        return counts.between == 0 && counts.refused == 0
    }

    /// The states after each save, and the write-operation count at the end of each save (`[0]` = 0).
    private func expected(_ workload: Workload) throws -> ([UInt64], [Int]) {
        let states = try workload.expectedStates(schema: schema)
        let container = ModelContainer(schema: schema)
        container.saveTransactions = grouping
        var boundaries = [0]
        try workload.run(on: container) { _ in boundaries.append(container.writeOperations) }
        container.close()
        return (states, boundaries)
    }

    private func removeStore(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal", ".creating", ".creating-wal", ".creating-shm"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }

    /// Runs a child on a new store; whether it died of SIGKILL, and how many saves it reported.
    private func launch(path: String, seed: UInt64, killAt: Int, killAfter: Double?) -> (killed: Bool, saved: Int) {
        removeStore(path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["child", path, String(seed), String(saves), String(killAt), grouping.rawValue]
        let output = Pipe()
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            fail("cannot start a child: \(error)")
        }
        if let killAfter {
            usleep(useconds_t(killAfter * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let saved = String(decoding: data, as: UTF8.self).split(separator: "\n").count
        let killed = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
        if !killed, process.terminationStatus != 0 { fail("a child failed with status \(process.terminationStatus)") }
        return (killed, saved)
    }
}
