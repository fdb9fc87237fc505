import Foundation
import GraphStore
import Testing

/// The summary line of a `graph-store-crasher campaign`.
private struct CampaignResult {
    var status: Int32
    var counts: [String: Int] = [:]
    var output: String

    subscript(key: String) -> Int { counts[key] ?? -1 }
}

/// Runs `graph-store-crasher campaign` with `arguments` on a tmpfs (or temporary) directory.
private func campaign(_ arguments: [String]) throws -> CampaignResult {
    let scratch = ScratchDirectory()
    defer { scratch.remove() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: crasherExecutable)
    process.arguments = ["campaign", "--dir", scratch.path] + arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    var result = CampaignResult(status: process.terminationStatus, output: text)
    let summary = text.split(separator: "\n").last.map(String.init) ?? ""
    let words = summary.split(separator: " ").map(String.init)
    for (key, value) in zip(words, words.dropFirst()) where key.hasSuffix(":") {
        if let number = Int(value) { result.counts[String(key.dropLast())] = number }
    }
    return result
}

/// The built `graph-store-crasher`, next to the test bundle.
private var crasherExecutable: String {
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = url.appendingPathComponent("graph-store-crasher").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        url = url.deletingLastPathComponent()
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return root.path + "/.build/debug/graph-store-crasher"
}

/// A process SIGKILLed inside a save: the reopened file holds the state before or after the save.
/// The full count (≥ 1,000 kills) is in docs/performance.md.
@Suite("Killed saves")
struct KilledSaveTests {
    @Test("Killed at seeded write operations, a one-transaction save leaves the file before it")
    func killedAtOperations() throws {
        let result = try campaign(["--kills", "8", "--seed", "1", "--saves", "6"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result["kills"] == 8)
        #expect(result["between"] == 0)
        #expect(result["refused"] == 0)
        #expect(result["inside-save"] >= 4, "most kills must land inside a save, not between two")
        #expect(result["before"] + result["after"] == 8)
    }

    @Test("Killed at random moments, a one-transaction save leaves the file before or after it")
    func killedAtRandomMoments() throws {
        let result = try campaign(["--kills", "6", "--seed", "2", "--saves", "6", "--random-time"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result["kills"] + result["finished"] == 6)
        #expect(result["between"] == 0)
        #expect(result["refused"] == 0)
        #expect(result["before"] + result["after"] == result["kills"])
    }

    @Test("The campaign catches the faulty groupings: a killed save leaves the file between states",
          arguments: ["perRow", "rowsThenRelationships"])
    func faultyGroupingsAreCaught(_ grouping: String) throws {
        let result = try campaign(["--kills", "8", "--seed", "1", "--saves", "6", "--grouping", grouping])
        #expect(result.status == 1, "\(result.output)")
        #expect(result["between"] > 0)
        #expect(result.output.contains("the store is between states"))
    }
}
