/// Where an action's arguments come from: drawn from a `Draw` (generation, shrinking) or read from
/// a recorded trace step (corpus replay). An action draws each argument once, by label; the same
/// code writes the trace when drawing and reads it back when replaying, so no machine writes trace
/// encoding by hand, and a replayed value outside its range is an error naming the step.
public struct Arguments {
    @usableFromInline enum Source {
        case drawing(Draw)
        case reading(TraceStep)
    }

    @usableFromInline let source: Source
    /// The reference the step binds if it creates an object (`v1`, `v2`, …).
    @usableFromInline var nextRef: Ref
    /// The drawn arguments, in order. The runner lends the same buffer to every step of a case (or
    /// keeps one `Arguments` for a search's chunk, `begin`), so recording them allocates nothing per
    /// step; a `TraceStep` is made from them only when needed.
    @usableFromInline var recorded: [TraceStep.Argument]
    @usableFromInline var created: Ref?
    /// Whether a coded command's own trace is derived as it is drawn (false during a search: the
    /// runner derives it only for a failure).
    @usableFromInline var tracesCoded: Bool
    /// The first argument that could not be read from a trace.
    @usableFromInline var failure: TraceError?
    public var error: TraceError? { failure }

    @usableFromInline
    init(_ source: Source, nextRef: Ref, buffer: [TraceStep.Argument] = [], tracesCoded: Bool = true) {
        self.source = source
        self.nextRef = nextRef
        recorded = buffer
        if !recorded.isEmpty { recorded.removeAll(keepingCapacity: true) }
        self.tracesCoded = tracesCoded
        if case .reading(let step) = source { created = step.result }
    }

    /// Starts the next step drawn from the same draw (a search keeps one `Arguments` for all its steps).
    @inlinable
    mutating func begin(nextRef: Ref, tracesCoded: Bool) {
        self.nextRef = nextRef
        self.tracesCoded = tracesCoded
        created = nil
        codedName = nil
        // One by one: `removeAll(keepingCapacity:)` costs more than the few arguments a step draws.
        while !recorded.isEmpty { recorded.removeLast() }
    }

    /// Whether the draw rejected the case (a filter that ran out of tries).
    @inlinable
    var isRejected: Bool {
        if case .drawing(let draw) = source { return draw.isRejected }
        return false
    }

    /// The trace step these arguments make, named `name`.
    @usableFromInline
    func trace(_ name: String) -> TraceStep {
        if case .reading(let step) = source { return step }
        return TraceStep(name, result: created, recorded)
    }

    /// True when the arguments come from a trace: generation-only logic may be skipped.
    public var isReplaying: Bool {
        if case .reading = source { return true }
        return false
    }

    /// A value drawn by `generate` (recorded under `label`) or read from the trace with `read`.
    @inlinable
    mutating func value<T>(_ label: String, _ generate: (Draw) -> T, encode: (T) -> TraceValue,
                           read: (TraceStep) throws(TraceError) -> T, placeholder: T) -> T {
        switch source {
        case .drawing(let draw):
            let value = generate(draw)
            recorded.append(TraceStep.Argument(label, encode(value)))
            return value
        case .reading(let step):
            do throws(TraceError) { return try read(step) } catch {
                if failure == nil { failure = error }
                return placeholder
            }
        }
    }

    // MARK: Arguments

    /// An integer in `range`, shrinking towards the end nearest zero.
    @inlinable
    public mutating func int(_ label: String, in range: ClosedRange<Int>) -> Int {
        int(label, in: range) { $0.int(in: range) }
    }

    /// An integer in `range` drawn by `generate` (weights, a pool of values, a model-dependent choice).
    @inlinable
    public mutating func int(_ label: String, in range: ClosedRange<Int>, _ generate: (Draw) -> Int) -> Int {
        value(label, generate, encode: { .int($0) }, read: { step throws(TraceError) in try step.int(label, in: range) },
              placeholder: range.lowerBound)
    }

    /// A boolean, true with `probability` when random; false is the simpler.
    @inlinable
    public mutating func bool(_ label: String, probability: Double = 0.5) -> Bool {
        value(label, { $0.chooseBool(probability: probability) }, encode: { .bool($0) },
              read: { step throws(TraceError) in try step.bool(label) }, placeholder: false)
    }

    /// An index into `names`, recorded as the name; chosen by `weights` (uniform when nil).
    @inlinable
    public mutating func name(_ label: String, from names: [String], weights: [UInt32]? = nil) -> Int {
        value(label, { draw in weights.map { draw.chooseWeighted($0) } ?? Int(draw.choose(upTo: UInt64(names.count - 1))) },
              encode: { .string(names[$0]) },
              read: { step throws(TraceError) in
                  let text = try step.string(label)
                  guard let index = names.firstIndex(of: text) else {
                      throw TraceError("argument '\(label)' of '\(step.name)' is \"\(text)\"; expected one of \(names.joined(separator: ", "))")
                  }
                  return index
              }, placeholder: 0)
    }

    /// An enumeration case, recorded by its raw name.
    @inlinable
    public mutating func enumeration<E: RawRepresentable & CaseIterable>(_ label: String, _ type: E.Type) -> E
    where E.RawValue == String, E.AllCases.Index == Int {
        E.allCases[name(label, from: E.allCases.map(\.rawValue))]
    }

    /// A reference to an existing object: the `k`-th of `0..<count` that `include` accepts, or nil
    /// when none does. Replaying, the trace's reference is read as is (the machine's command
    /// precondition decides whether it still applies).
    @inlinable
    public mutating func ref(_ label: String, among count: Int, where include: (Int) -> Bool) -> Ref? {
        pickRef(label, among: count, where: include) { Ref($0) }
    }

    /// A reference from a bundle, or nil when the bundle holds none that `include` accepts.
    @inlinable
    public mutating func ref<Value>(_ label: String, from bundle: Bundle<Value>, where include: (Value) -> Bool = { _ in true }) -> Ref? {
        pickRef(label, among: bundle.count, where: { include(bundle.values[$0]) }) { bundle.refs[$0] }
    }

    /// An index among `0..<count` that `include` accepts (recorded as an integer), or nil when none does.
    @inlinable
    public mutating func index(_ label: String, among count: Int, where include: (Int) -> Bool) -> Int? {
        switch source {
        case .drawing:
            guard let ref = pickRef(label, among: count, where: include, { Ref($0) }) else { return nil }
            recorded[recorded.count - 1].value = .int(ref.index)
            return ref.index
        case .reading:
            return value(label, { _ in 0 }, encode: { .int($0) }, read: { step throws(TraceError) in try step.int(label, in: 0...Int(Int32.max)) },
                         placeholder: 0)
        }
    }

    /// Counts the candidates, draws `k`, finds the `k`-th in a second pass (no list per step).
    @inlinable
    mutating func pickRef(_ label: String, among count: Int, where include: (Int) -> Bool, _ ref: (Int) -> Ref) -> Ref? {
        switch source {
        case .drawing(let draw):
            var matches = 0
            for r in 0..<count where include(r) { matches += 1 }
            guard matches > 0 else { return nil }
            var k = Int(draw.choose(upTo: UInt64(matches - 1)))
            for r in 0..<count where include(r) {
                if k == 0 {
                    recorded.append(TraceStep.Argument(label, .ref(ref(r))))
                    return ref(r)
                }
                k -= 1
            }
            return nil
        case .reading:
            return value(label, { _ in Ref(0) }, encode: { .ref($0) }, read: { step throws(TraceError) in try step.ref(label) },
                         placeholder: Ref(0))
        }
    }

    /// The reference this step creates (`v3 = create(…)`): the next one when drawing, the
    /// trace's when replaying.
    @inlinable
    public mutating func result() -> Ref {
        switch source {
        case .drawing:
            created = nextRef
            return nextRef
        case .reading(let step):
            guard let ref = step.result else {
                if failure == nil { failure = TraceError("step '\(step.name)' needs a result like 'v1 = \(step.name)(…)'") }
                return nextRef
            }
            return ref
        }
    }

    /// A choice that only steers generation (which candidates to prefer) and is not part of the
    /// step: drawn when generating, false when replaying a trace.
    @inlinable
    public func flag(probability: Double = 0.5) -> Bool {
        if case .drawing(let draw) = source { return draw.chooseBool(probability: probability) }
        return false
    }

    /// A whole command of a type that encodes its own trace (`TraceCodable`): drawn by `generate`,
    /// decoded from the trace when replaying. For machines that keep a hand-written encoding.
    @inlinable
    public mutating func coded<C: TraceCodable>(_ generate: (Draw) -> C?) -> C? {
        switch source {
        case .drawing(let draw):
            guard let command = generate(draw) else { return nil }
            guard tracesCoded else { return command }
            let step = command.trace
            recorded = step.arguments
            created = step.result
            codedName = step.name
            return command
        case .reading(let step):
            do throws(TraceError) { return try C(trace: step) } catch {
                if failure == nil { failure = error }
                return nil
            }
        }
    }

    /// The step name a `coded` command wrote (it may differ from the action's name).
    @usableFromInline var codedName: String?
}
