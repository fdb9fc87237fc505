import GraphFuzzEngine

/// The public shrinking challenge (jlink/shrinking-challenge), written with GraphFuzz's own
/// generators as the challenge texts define them. Used by the engine's tests and by
/// scripts/shrink-compare, which reports the mean shrink evaluations beside Hypothesis' figures.
public enum ShrinkingChallenge: String, CaseIterable, Sendable {
    case bound5, largeUnionList = "large_union_list", reverse, calculator, lengthList = "lengthlist"
    case differenceMustNotBeZero = "difference_must_not_be_zero"
    case differenceMustNotBeSmall = "difference_must_not_be_small"
    case differenceMustNotBeOne = "difference_must_not_be_one"

    /// A found and shrunk counterexample, printed, with the number of shrink evaluations.
    public struct Result: Sendable {
        public var counterexample: String
        public var isMinimal: Bool
        public var shrinkAttempts: Int
    }

    /// Runs the challenge with `seed`; nil when no counterexample was found within `runs` cases.
    public func run(seed: UInt64, runs: Int = 5000) -> Result? {
        switch self {
        case .bound5: return Self.solve(Self.bound5Problems, seed, runs, holds: { p in
            Self.wrap16(p.joined().reduce(0, +)) < 5 * 256
        }, minimal: Self.isMinimalBound5)
        case .largeUnionList: return Self.solve(Gen<Int>.int(in: Int(Int64.min)...Int(Int64.max)).list().list(), seed, runs, holds: { ls in
            Set(ls.joined()).count < 5
        }, minimal: { ls in ls.count == 1 && ls[0].sorted() == [-2, -1, 0, 1, 2] })
        case .reverse: return Self.solve(Gen<Int>.int(in: Int(Int64.min)...Int(Int64.max)).list(), seed, runs, holds: { l in
            l.reversed() == l
        }, minimal: { l in l.count == 2 && l.sorted() == [0, 1] })
        case .calculator: return Self.solve(Expression.gen, seed, runs, holds: { e in
            guard e.hasNoLiteralZeroDivisor else { return nil }
            return e.evaluate() != nil
        }, minimal: { e in e == .div(.int(0), .add(.int(0), .int(0))) })
        case .lengthList: return Self.solve(Gen<Int>.int(in: 1...100).flatMap { Gen<Int>.int(in: 0...1000).array(count: $0) }, seed, runs, holds: { l in
            l.max()! < 900
        }, minimal: { l in l == [900] })
        case .differenceMustNotBeZero: return Self.difference(seed, runs, [10, 10]) { _, d in d != 0 }
        case .differenceMustNotBeSmall: return Self.difference(seed, runs, [10, 6]) { _, d in d < 1 || d > 4 }
        case .differenceMustNotBeOne: return Self.difference(seed, runs, [10, 9]) { _, d in d != 1 }
        }
    }

    /// Hypothesis 6.155's mean shrink evaluations, measured on this project's machine with
    /// `scripts/shrink-compare/compare.sh` (docs/performance.md gives the seeds behind each figure).
    public var hypothesisMeanEvaluations: Double {
        switch self {
        case .bound5: return 152.80
        case .largeUnionList: return 183.65
        case .reverse: return 8.41
        case .calculator: return 66.83
        case .lengthList: return 86.42
        case .differenceMustNotBeZero: return 26.27
        case .differenceMustNotBeSmall: return 39.89
        case .differenceMustNotBeOne: return 37.65
        }
    }

    // MARK: Definitions

    /// Five lists of at most one int16 each, each list summing (int16, wrapping) below 256.
    static let bound5Problems: Gen<[[Int]]> = {
        let boundedList = Gen<Int>.int16.list(maxCount: 1, averageCount: 1).filter { wrap16($0.reduce(0, +)) < 256 }
        return Gen { draw in (0..<5).map { _ in boundedList.generate(draw) } }
    }()

    static func isMinimalBound5(_ problem: [[Int]]) -> Bool {
        let nonEmpty: [[Int]] = problem.filter { !$0.isEmpty }
        let singles: [Int] = nonEmpty.compactMap { $0.count == 1 ? $0[0] : nil }
        return problem.count - nonEmpty.count == 3 && singles.sorted() == [-32768, -1]
    }

    static func wrap16(_ value: Int) -> Int { Int(Int16(truncatingIfNeeded: value)) }

    static func difference(_ seed: UInt64, _ runs: Int, _ minimum: [Int], _ passes: @escaping (Int, Int) -> Bool) -> Result? {
        let positive = Gen<Int>.int(in: 1...Int(Int32.max))
        let pair = Gen<[Int]> { draw in [positive.generate(draw), positive.generate(draw)] }
        return solve(pair, seed, runs, holds: { p in p[0] < 10 || passes(p[0], abs(p[0] - p[1])) }, minimal: { $0 == minimum })
    }

    static func solve<T>(_ gen: Gen<T>, _ seed: UInt64, _ runs: Int, holds: @escaping (T) -> Bool?, minimal: (T) -> Bool) -> Result? {
        guard let found = Property.counterexample(gen, seed: seed, runs: runs, holds) else { return nil }
        return Result(counterexample: "\(found.value)", isMinimal: minimal(found.value), shrinkAttempts: found.shrinkAttempts)
    }
}

/// The calculator challenge's expressions: integers, sums and (floor) divisions.
public indirect enum Expression: Equatable, Sendable, CustomStringConvertible {
    case int(Int)
    case add(Expression, Expression)
    case div(Expression, Expression)

    static let gen: Gen<Expression> = Gen.recursive(
        maxDepth: 4, leaf: Gen<Int>.int(in: Int(Int64.min)...Int(Int64.max)).map(Expression.int)
    ) { expression in
        .oneOf([
            Gen<Int>.int(in: Int(Int64.min)...Int(Int64.max)).map(Expression.int),
            Gen { draw in .add(expression.generate(draw), expression.generate(draw)) },
            Gen { draw in .div(expression.generate(draw), expression.generate(draw)) },
        ])
    }

    /// The challenge's assumption: no subterm divides by a literal 0.
    var hasNoLiteralZeroDivisor: Bool {
        switch self {
        case .int: return true
        case .add(let a, let b): return a.hasNoLiteralZeroDivisor && b.hasNoLiteralZeroDivisor
        case .div(let a, let b): return b != .int(0) && a.hasNoLiteralZeroDivisor && b.hasNoLiteralZeroDivisor
        }
    }

    /// The value with wrapping sums and floor division; nil on a division by zero.
    func evaluate() -> Int? {
        switch self {
        case .int(let value): return value
        case .add(let a, let b):
            guard let x = a.evaluate(), let y = b.evaluate() else { return nil }
            return x &+ y
        case .div(let a, let b):
            guard let x = a.evaluate(), let y = b.evaluate(), y != 0 else { return nil }
            let (q, overflow) = x.dividedReportingOverflow(by: y)
            if overflow { return x }
            return (x % y != 0 && (x < 0) != (y < 0)) ? q - 1 : q
        }
    }

    public var description: String {
        switch self {
        case .int(let value): return String(value)
        case .add(let a, let b): return "('+', \(a), \(b))"
        case .div(let a, let b): return "('/', \(a), \(b))"
        }
    }
}
