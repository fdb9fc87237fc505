/// The ranges the numeric flags accept. Values outside them cannot work (a timeout no case can
/// meet, a budget that overflows a clock, more workers than memory holds) and are refused with
/// exit 2 before anything runs.
enum FlagLimits {
    /// `--runs`: cases per target.
    static let runs = 1...1_000_000_000_000
    /// `--steps`: most steps per case (the harness keeps every step of a case in memory).
    static let steps = 1...1_000_000
    /// `--jobs`: worker processes asked for; the run then caps them at the machine's cores and
    /// open-file limit (`WorkerBudget`).
    static let jobs = 1...4096
    /// `--time` and `bench --soak`, in seconds (at most a year: later deadlines overflow the clock).
    static let time = 0.001...31_536_000.0
    /// `--case-timeout`, in seconds: a worker needs about this long to start a case and run a
    /// step; at most a day.
    static let caseTimeout = 0.1...86_400.0

    /// A limit as the error message prints it: no trailing `.0`.
    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
