/// Bad usage: the message names the flag or value that was wrong. Exit code 2.
package struct UsageError: Error, Equatable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

/// A command's arguments, read flag by flag. Each accessor takes its flag (and the value after it) wherever it
/// stands, checks it, and throws an error naming the flag, the value and what is allowed; a flag given twice
/// keeps its last value. What no accessor took (an unknown flag, a stray word) is left for `leftover`, which the
/// command line reports once the command has read its flags.
package struct Flags {
    private let tokens: [String]
    private var taken: [Bool]
    /// Put before a flag in its messages: "coverage " gives "coverage --seed: '…' is out of range (…)".
    let prefix: String

    package init(_ arguments: some Sequence<String>, prefix: String = "") {
        tokens = Array(arguments)
        taken = Array(repeating: false, count: tokens.count)
        self.prefix = prefix
    }

    /// Whether the switch `name` was given.
    package mutating func has(_ name: String) -> Bool {
        var found = false
        for index in tokens.indices where !taken[index] && tokens[index] == name {
            taken[index] = true
            found = true
        }
        return found
    }

    /// Whether `name` was given as a flag at all (taken or not).
    package func given(_ name: String) -> Bool { tokens.contains(name) }

    /// The value of `name` (the argument after it), nil when the flag is not given.
    package mutating func string(_ name: String) throws(UsageError) -> String? {
        var value: String?
        for index in tokens.indices where !taken[index] && tokens[index] == name {
            taken[index] = true
            guard index + 1 < tokens.count, !taken[index + 1] else { throw UsageError("\(prefix)\(name) needs a value") }
            taken[index + 1] = true
            value = tokens[index + 1]
        }
        return value
    }

    /// The value of `name` read by `parse`, which is given the flag as its messages name it ("coverage --seed").
    package mutating func value<T>(_ name: String, _ parse: (_ label: String, _ text: String) throws(UsageError) -> T) throws(UsageError) -> T? {
        var value: T?
        for index in tokens.indices where !taken[index] && tokens[index] == name {
            taken[index] = true
            guard index + 1 < tokens.count, !taken[index + 1] else { throw UsageError("\(prefix)\(name) needs a value") }
            taken[index + 1] = true
            value = try parse(prefix + name, tokens[index + 1])
        }
        return value
    }

    /// A positive integer within `range`.
    package mutating func int(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        try value(name) { (label, text) throws(UsageError) in try Flags.positiveInt(label, text, within: range) }
    }

    /// A seed: any integer from 0 to 2^64 − 1.
    package mutating func seed(_ name: String) throws(UsageError) -> UInt64? {
        try value(name) { (label, text) throws(UsageError) in try Flags.seed(label, text) }
    }

    /// A positive number of seconds within `range`.
    package mutating func seconds(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        try value(name) { (label, text) throws(UsageError) in try Flags.seconds(label, text, within: range) }
    }

    /// The arguments no accessor took that are not flags (files, folders), in order; they are taken.
    package mutating func operands() -> [String] {
        var found: [String] = []
        for index in tokens.indices where !taken[index] && !tokens[index].hasPrefix("-") {
            taken[index] = true
            found.append(tokens[index])
        }
        return found
    }

    /// The first argument no accessor took, nil when every one was.
    package var leftover: String? { tokens.indices.first { !taken[$0] }.map { tokens[$0] } }

    // MARK: Values

    /// A positive integer within `limits`. Digits beyond the largest integer are out of range, not "not a number".
    package static func positiveInt(_ label: String, _ text: String, within limits: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let value = Int(text) else {
            if isInteger(text) && !text.hasPrefix("-") {
                throw UsageError("\(label): '\(text)' is out of range (\(limits.lowerBound)–\(limits.upperBound))")
            }
            throw UsageError("\(label): '\(text)' is not a positive integer")
        }
        guard value > 0 else { throw UsageError("\(label): '\(text)' is not a positive integer") }
        guard limits.contains(value) else { throw UsageError("\(label): '\(text)' is out of range (\(limits.lowerBound)–\(limits.upperBound))") }
        return value
    }

    /// A seed: any integer from 0 to 2^64 − 1. Digits beyond it are out of range, not "not a number".
    package static func seed(_ label: String, _ text: String) throws(UsageError) -> UInt64 {
        guard let value = UInt64(text) else {
            if isInteger(text) && !text.hasPrefix("-") {
                throw UsageError("\(label): '\(text)' is out of range (0–\(UInt64.max))")
            }
            throw UsageError("\(label): '\(text)' is not a non-negative integer")
        }
        return value
    }

    /// A positive, finite number of seconds within `limits`.
    package static func seconds(_ label: String, _ text: String, within limits: ClosedRange<Double>) throws(UsageError) -> Double {
        guard let seconds = Double(text), seconds > 0, seconds.isFinite else { throw UsageError("\(label): '\(text)' is not a positive number of seconds") }
        guard limits.contains(seconds) else {
            throw UsageError("\(label): '\(text)' is out of range (\(FlagLimits.text(limits.lowerBound))–\(FlagLimits.text(limits.upperBound)) seconds)")
        }
        return seconds
    }

    /// `--case-timeout`: below `FlagLimits.caseTimeout` a worker cannot even start a case, and every case would be a hang.
    package static func caseTimeout(_ label: String, _ text: String) throws(UsageError) -> Double {
        let limits = FlagLimits.caseTimeout
        guard let seconds = Double(text), seconds > 0, seconds.isFinite else { throw UsageError("\(label): '\(text)' is not a positive number of seconds") }
        guard seconds >= limits.lowerBound else {
            throw UsageError("\(label): '\(text)' is too short: a case needs at least \(FlagLimits.text(limits.lowerBound)) s to start and run a step (every case would be reported as a hang)")
        }
        return try Flags.seconds(label, text, within: limits)
    }

    /// An optional sign followed by at least one digit and nothing else: a number, however large.
    static func isInteger(_ text: String) -> Bool {
        let digits = text.hasPrefix("+") || text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        return !digits.isEmpty && digits.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
    }
}

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
