import GraphFuzzEngine

/// The progress of a long search on standard error: on a terminal one line rewritten every
/// second; with `--progress` and no terminal, a line every two seconds. Cases done, cases per
/// second, failures so far, and the time left of `--time`.
final class ProgressLine {
    let console: Console
    let enabled: Bool
    /// Rewrite one line in place (a terminal) rather than print a line each time.
    let rewrite: Bool
    private var showing = false

    init(console: Console, enabled: Bool, rewrite: Bool) {
        self.console = console
        self.enabled = enabled
        self.rewrite = rewrite
    }

    /// Seconds between progress reports.
    var interval: Double { rewrite ? 1 : 2 }

    func show(runs: Int, _ soFar: SearchRun) {
        guard enabled else { return }
        let line = Self.text(runs: runs, soFar)
        if rewrite {
            console.err("\r\u{1B}[K" + line)
            showing = true
        } else {
            console.err(line + "\n")
        }
    }

    /// A note on standard error: something the harness did that is no failure of the code under test.
    func note(_ text: String) {
        clear()
        console.err("graph-fuzz: note: \(text)\n")
    }

    /// Erases the rewritten line before other output.
    func clear() {
        guard showing else { return }
        console.err("\r\u{1B}[K")
        showing = false
    }

    /// The line for the search `soFar` of `runs` cases: cases done, their rate, the failures found so far (shrunk and
    /// reported), and the time left of `--time`.
    static func text(runs: Int, _ soFar: SearchRun) -> String {
        let rate = soFar.seconds > 0 ? Int(Double(soFar.cases) / soFar.seconds) : 0
        let failures = soFar.failures.count
        var line = "graph-fuzz: progress: \(soFar.plan.target)\(soFar.plan.mutant.map { " (\($0))" } ?? ""): \(soFar.cases) of \(runs) cases, "
        line += "\(rate) cases/s, \(failures) \(failures == 1 ? "failure" : "failures") so far"
        if let left = soFar.secondsLeft { line += ", \(Int(left.rounded(.up))) s left" }
        return line
    }
}
