import Foundation
import GraphFuzzCLI
import Testing

@Suite("README, docs/ci.md and --help say what the command does (built executable)")
struct DocumentationTests {
    private func keys(of line: Substring) throws -> [String] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return object.keys.sorted()
    }

    @Test("--help lists every key of the failure, summary and replay JSON events")
    func helpListsJSONKeys() throws {
        let help = try graphFuzz(["--help"]).stdout
        let section = try #require(help.components(separatedBy: "JSON LINES").dropFirst().first?.components(separatedBy: "\n\n").first)
        // One entry per event: its name first, its keys after (wrapped lines continue the entry).
        var entries: [String: [Substring]] = [:]
        var current = ""
        for line in section.split(separator: "\n").dropFirst() {
            let words = line.split(separator: " ")
            if line.hasPrefix("  ") && !line.hasPrefix("           "), let first = words.first {
                current = String(first)
                entries[current] = Array(words.dropFirst())
            } else {
                entries[current, default: []] += words
            }
        }
        let run = try graphFuzz(["--mutant", "queue-off-by-one", "--seed", "1", "--json", "--no-save", "--in-process"])
        let replay = try graphFuzz(["replay", "--json", Package.corpus + "/" + (corpusFiles.first ?? "")])
        let lines = run.stdout.split(separator: "\n") + replay.stdout.split(separator: "\n")
        // A failure found, then reported, a coverage event per queue rule (Q1–Q3), the summary, a replay.
        #expect(lines.count == 7)
        #expect(lines.filter { $0.contains(#""event":"coverage""#) }.count == 3)
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let event = try #require(object["event"] as? String)
            let listed = try #require(entries[event], "--help lists no keys for \(event) events")
            for key in try keys(of: line) {
                #expect(listed.contains(Substring(key)), "--help does not list key '\(key)' of \(event) events")
            }
        }
    }

    @Test("every graph-fuzz command the README shows with its output prints that output (timings aside)")
    func readmeExamples() throws {
        let readme = try String(contentsOfFile: Package.root + "/README.md", encoding: .utf8)
        let examples = ReadmeExample.all(in: readme)
        #expect(examples.contains { $0.arguments == ["--mutant", "relate-before-insert", "--seed", "1"] }, "the README's examples: \(examples)")
        var outputs: [[String]: ProcessResult] = [:]
        for example in examples {
            // In a folder of its own: a run saves its failures to Corpus/ there, never to the package's.
            let folder = temporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let result = try outputs[example.arguments] ?? graphFuzz(example.arguments, in: folder)
            outputs[example.arguments] = result
            if let mismatch = example.mismatch(result.stdout) {
                Issue.record("README.md line \(example.line): `graph-fuzz \(example.arguments.joined(separator: " "))` \(mismatch)")
            }
        }
        // The prose says how many failures the example prints.
        let run = try #require(outputs[["--mutant", "relate-before-insert", "--seed", "1"]])
        let count = run.stdout.split(separator: "\n").filter { $0.hasPrefix("FAILURE ") }.count
        let words = ["one", "two", "three", "four", "five"]
        #expect((1...words.count).contains(count) && readme.contains("prints \(words[count - 1]) failure"),
                "the README must say how many failures it prints (\(count))")
    }

    @Test("every known issue in swift test output says it is expected")
    func knownIssuesNamed() throws {
        let manager = FileManager.default
        let tests = Package.root + "/Tests"
        var bare: [String] = []
        for path in manager.subpaths(atPath: tests) ?? [] where path.hasSuffix(".swift") {
            let text = try String(contentsOfFile: tests + "/" + path, encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains("withKnownIssue") && !line.contains("\"withKnownIssue") {
                if !line.contains("withKnownIssue(\"expected: ") { bare.append("\(path): \(line.trimmingCharacters(in: .whitespaces))") }
            }
        }
        #expect(bare.isEmpty, "known issues without an 'expected: …' comment read as failures: \(bare)")
        let readme = try String(contentsOfFile: Package.root + "/README.md", encoding: .utf8)
        #expect(readme.contains("recorded a known issue"))
    }

    @Test("README, docs/ci.md and --help describe every exit code and what counts as a failure of the code under test")
    func exitCodes() throws {
        let help = try graphFuzz(["--help"]).stdout
        let readme = try String(contentsOfFile: Package.root + "/README.md", encoding: .utf8)
        let ci = try String(contentsOfFile: Package.root + "/docs/ci.md", encoding: .utf8)
        for (name, text) in [("--help", help), ("README.md", readme), ("docs/ci.md", ci)] {
            for code in ["0", "1", "2", "3", "130", "143"] {
                #expect(text.contains("| \(code) |") || text.contains("  \(code) ") || text.contains("| \(code) / ") || text.contains(" / \(code)"),
                        "\(name) does not describe exit code \(code)")
            }
            #expect(text.localizedCaseInsensitiveContains("infrastructure"), "\(name)")
            #expect(text.localizedCaseInsensitiveContains("failure of the code under test"), "\(name)")
        }
    }
}

/// A fenced block of the README whose first line is `$ graph-fuzz ARGUMENTS`: the lines after it are what the command
/// prints on standard output, where a line holding only `…` stands for any number of lines (at the start: the block
/// begins somewhere in the output; at the end: more follows). Timings are masked on both sides.
struct ReadmeExample: CustomStringConvertible {
    var arguments: [String]
    /// The 1-based README line of the `$` line.
    var line: Int
    var excerpt: [String]

    var description: String { "line \(line): graph-fuzz \(arguments.joined(separator: " "))" }

    static func all(in readme: String) -> [ReadmeExample] {
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var examples: [ReadmeExample] = []
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            guard lines[index].hasPrefix("```"), index + 1 < lines.count, lines[index + 1].hasPrefix("$ graph-fuzz ") else { continue }
            let arguments = lines[index + 1].dropFirst("$ graph-fuzz ".count).split(separator: " ").map(String.init)
            var end = index + 2
            while end < lines.count && !lines[end].hasPrefix("```") { end += 1 }
            examples.append(ReadmeExample(arguments: arguments, line: index + 2, excerpt: Array(lines[(index + 2)..<end])))
            index = end
        }
        return examples
    }

    /// What of the excerpt `output` lacks, nil when it shows every line in order.
    func mismatch(_ output: String) -> String? {
        func normal(_ line: String) -> String {
            var line = maskingTimings(line)
            while line.last == " " { line.removeLast() }
            return line
        }
        var printed = output.split(separator: "\n", omittingEmptySubsequences: false).map { normal(String($0)) }
        while printed.last == "" { printed.removeLast() }
        let isGap = { (line: String) in line.trimmingCharacters(in: .whitespaces) == "…" }
        // Runs of lines between the gaps, each to be found whole, in order.
        var segments: [[String]] = [[]]
        for line in excerpt {
            if isGap(line) { segments.append([]) } else { segments[segments.count - 1].append(normal(line)) }
        }
        let openStart = excerpt.first.map(isGap) ?? false, openEnd = excerpt.last.map(isGap) ?? false
        var position = 0
        for (number, segment) in segments.enumerated() where !segment.isEmpty {
            let anchored = number == 0 && !openStart
            let candidates = anchored ? [position] : Array(position...max(position, printed.count))
            guard let start = candidates.first(where: { printed.count - $0 >= segment.count && Array(printed[$0..<($0 + segment.count)]) == segment })
            else {
                // Name the first line of the run that is not printed there.
                let best = candidates.max { matched(segment, at: $0, in: printed) < matched(segment, at: $1, in: printed) } ?? position
                let missing = segment[matched(segment, at: best, in: printed)]
                return "does not print \(anchored ? "first " : "")'\(missing)'"
                    + (best + matched(segment, at: best, in: printed) < printed.count ? " (it prints '\(printed[best + matched(segment, at: best, in: printed)])')" : "")
            }
            position = start + segment.count
        }
        if !openEnd && position < printed.count { return "prints more after the last line shown: '\(printed[position])'" }
        return nil
    }

    /// How many lines of `segment` `printed` holds from `start` on.
    private func matched(_ segment: [String], at start: Int, in printed: [String]) -> Int {
        var count = 0
        while count < segment.count && start + count < printed.count && printed[start + count] == segment[count] { count += 1 }
        return count
    }
}
