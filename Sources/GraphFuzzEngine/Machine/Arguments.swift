/// Where a step's arguments (and a case's configuration) come from: drawn from a `Draw` (generation,
/// shrinking) or read from a recorded trace step (corpus replay). Each value is drawn once, by label; the
/// same code writes the trace when drawing and reads it back when replaying, so no machine writes a trace
/// encoding by hand, and a replayed value outside its range is an error naming the step.
///
/// When no arguments fit the state, an action's `arguments` closure throws `Arguments.unavailable`
/// (`ref` does so when it finds no candidate, `require` when its condition fails): the engine then
/// chooses another action, and a replayed step that cannot be applied is reported by its number.
public struct Arguments {
    /// No arguments fit in this state: the action is left out of this step (replaying: the step cannot be
    /// applied). Throw `Arguments.unavailable`.
    public struct Unavailable: Error, Sendable, Equatable {
        public init() {}
    }

    /// Thrown by an action's `arguments` when no arguments fit in this state.
    public static var unavailable: Unavailable { Unavailable() }

    @usableFromInline enum Source {
        case drawing(Draw)
        case reading(TraceStep)
    }

    @usableFromInline var source: Source
    /// The reference the step binds if it creates an object (`v1`, `v2`, …).
    @usableFromInline var nextRef: Ref
    /// The drawn arguments, in order. The runner keeps one `Arguments` for every step of a case (or of a
    /// chunk of cases, `begin`), so recording them allocates nothing per step; a `TraceStep` is made from
    /// them only when needed.
    @usableFromInline var recorded: [TraceStep.Argument] = []
    @usableFromInline var created: Ref?
    /// Whether a coded command's own trace is derived as it is drawn (only when the run records steps:
    /// a search derives it for a failure's message alone).
    @usableFromInline var tracesCoded: Bool
    /// Whether this step's arguments were a coded command (`coded`).
    @usableFromInline var isCoded = false
    /// The step name a `coded` command wrote (it may differ from the action's name).
    @usableFromInline var codedName: String?
    /// Whether drawn values are kept in `recorded` (a search's configuration keeps none: nobody reads it).
    @usableFromInline var keepsValues = true
    /// The first argument that could not be read from a trace.
    @usableFromInline var failure: TraceError?

    @usableFromInline
    init(_ source: Source, nextRef: Ref = Ref(0), tracesCoded: Bool = true) {
        self.source = source
        self.nextRef = nextRef
        self.tracesCoded = tracesCoded
        if case .reading(let step) = source { created = step.result }
    }

    /// Starts the next step drawn from the same draw. Always inlined: it runs once a step, and the step loop
    /// is the search's hot path.
    @inlinable @inline(__always)
    mutating func begin(nextRef: Ref, tracesCoded: Bool) {
        self.nextRef = nextRef
        self.tracesCoded = tracesCoded
        created = nil
        codedName = nil
        isCoded = false
        // One by one: `removeAll(keepingCapacity:)` costs more than the few arguments a step draws.
        while !recorded.isEmpty { recorded.removeLast() }
    }

    /// Starts the next step read from `step`.
    @usableFromInline
    mutating func begin(reading step: TraceStep, nextRef: Ref) {
        source = .reading(step)
        self.nextRef = nextRef
        created = step.result
        codedName = nil
        isCoded = false
        failure = nil
        recorded.removeAll()
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
        return TraceStep(codedName ?? name, result: created, recorded)
    }

    /// True when the arguments come from a trace: generation-only logic may be skipped.
    public var isReplaying: Bool {
        if case .reading = source { return true }
        return false
    }

    /// A value drawn by `generate` (recorded under `label`) or read from the trace with `read`. With
    /// `omitted`, a value equal to it is left out of the trace, and a trace without `label` reads as it.
    @inlinable
    mutating func value<T: Equatable>(_ label: String, _ generate: (Draw) -> T, encode: (T) -> TraceValue,
                                      read: (TraceStep) throws(TraceError) -> T, placeholder: T, omitted: T? = nil) -> T {
        switch source {
        case .drawing(let draw):
            let value = generate(draw)
            if keepsValues && (omitted == nil || value != omitted) { recorded.append(TraceStep.Argument(label, encode(value))) }
            return value
        case .reading(let step):
            if let omitted, !step.arguments.contains(where: { $0.label == label }) { return omitted }
            do throws(TraceError) { return try read(step) } catch {
                if failure == nil { failure = error }
                return placeholder
            }
        }
    }

    // MARK: Values

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

    /// Draws what `body` draws as parameters the configuration declares: how the case runs (the store's backend, a
    /// real or a simulated file system), never where it starts. Where the configuration's other choices can stand for
    /// steps (`StateMachine.configurationStandsForSteps`), the configuration shrink passes, which try another value of
    /// a configuration choice with early steps deleted, leave these alone; in any configuration the shrink first tries
    /// each at zero, once (`lower-parameters`: a failure that does not need its value then shrinks where a candidate
    /// runs cheapest).
    @inlinable
    public mutating func parameters<T>(_ body: (inout Arguments) -> T) -> T {
        guard case .drawing(let draw) = source else { return body(&self) }
        draw.beginSpan(.parameter)
        defer { draw.endSpan() }
        return body(&self)
    }

    /// A boolean, true with `probability` when random; false is the simpler. With `default`, that value is
    /// left out of the trace and a trace without `label` reads as it (an argument added after traces were kept).
    @inlinable
    public mutating func bool(_ label: String, probability: Double = 0.5, default omitted: Bool? = nil) -> Bool {
        bool(label, default: omitted) { $0.chooseBool(probability: probability) }
    }

    /// A boolean drawn by `generate`; `default` as for `bool(_:probability:default:)`.
    @inlinable
    public mutating func bool(_ label: String, default omitted: Bool? = nil, _ generate: (Draw) -> Bool) -> Bool {
        value(label, generate, encode: { .bool($0) }, read: { step throws(TraceError) in try step.bool(label) },
              placeholder: false, omitted: omitted)
    }

    /// An index into `names`, recorded as the name; chosen by `weights` (uniform when nil).
    @inlinable
    public mutating func name(_ label: String, from names: [String], weights: [UInt32]? = nil) -> Int {
        name(label, from: names) { draw in weights.map { draw.chooseWeighted($0) } ?? Int(draw.choose(upTo: UInt64(names.count - 1))) }
    }

    /// An index into `names` drawn by `generate`, recorded as the name. With `default`, that index is left
    /// out of the trace and a trace without `label` reads as it.
    @inlinable
    public mutating func name(_ label: String, from names: [String], default omitted: Int? = nil, _ generate: (Draw) -> Int) -> Int {
        value(label, generate, encode: { .string(names[$0]) },
              read: { step throws(TraceError) in
                  let text = try step.string(label)
                  guard let index = names.firstIndex(of: text) else {
                      throw TraceError("argument '\(label)' of '\(step.name)' is \"\(text)\"; expected one of \(names.joined(separator: ", "))")
                  }
                  return index
              }, placeholder: 0, omitted: omitted)
    }

    /// An enumeration case, recorded by its raw name.
    @inlinable
    public mutating func enumeration<E: RawRepresentable & CaseIterable>(_ label: String, _ type: E.Type) -> E
    where E.RawValue == String, E.AllCases.Index == Int {
        E.allCases[name(label, from: E.allCases.map(\.rawValue))]
    }

    /// An enumeration case drawn by `generate`, recorded by its raw name; with `default`, that case is left
    /// out of the trace and a trace without `label` reads as it.
    @inlinable
    public mutating func enumeration<E: RawRepresentable & CaseIterable & Equatable>(_ label: String, _ type: E.Type, default omitted: E? = nil,
                                                                                     _ generate: (Draw) -> E) -> E
    where E.RawValue == String, E.AllCases.Index == Int {
        let cases = Array(E.allCases)
        let index = name(label, from: cases.map(\.rawValue), default: omitted.flatMap { cases.firstIndex(of: $0) }) { draw in
            cases.firstIndex(of: generate(draw))!
        }
        return cases[index]
    }

    // MARK: References

    /// A reference to an existing object: the `k`-th of `0..<count` that `include` accepts; throws
    /// `unavailable` when none does. Replaying, the trace's reference is read as is and must be below `count`
    /// (`include` steers generation; check other conditions with `require`).
    @inlinable
    public mutating func ref(_ label: String, among count: Int, where include: (Int) -> Bool) throws(Unavailable) -> Ref {
        try pickRef(label, among: count, where: include) { Ref($0) }
    }

    /// A reference from a bundle that `include` accepts; throws `unavailable` when there is none. Replaying,
    /// the trace's reference must be in the bundle.
    @inlinable
    public mutating func ref<Value>(_ label: String, from bundle: Bundle<Value>, where include: (Value) -> Bool = { _ in true }) throws(Unavailable) -> Ref {
        if case .reading = source {
            let ref = value(label, { _ in Ref(0) }, encode: { .ref($0) }, read: { step throws(TraceError) in try step.ref(label) }, placeholder: Ref(0))
            guard failure != nil || bundle.refs.contains(ref) else { throw Unavailable() }
            return ref
        }
        return try pickRef(label, among: bundle.count, where: { include(bundle.values[$0]) }) { bundle.refs[$0] }
    }

    /// An index among `0..<count` that `include` accepts (recorded as an integer); throws `unavailable` when none does.
    @inlinable
    public mutating func index(_ label: String, among count: Int, where include: (Int) -> Bool) throws(Unavailable) -> Int {
        switch source {
        case .drawing:
            let ref = try pickRef(label, among: count, where: include, { Ref($0) })
            recorded[recorded.count - 1].value = .int(ref.index)
            return ref.index
        case .reading:
            let index = value(label, { _ in 0 }, encode: { .int($0) }, read: { step throws(TraceError) in try step.int(label, in: 0...Int(Int32.max)) },
                              placeholder: 0)
            guard failure != nil || index < count else { throw Unavailable() }
            return index
        }
    }

    /// Counts the candidates, draws `k`, finds the `k`-th in a second pass (no list per step).
    @inlinable
    mutating func pickRef(_ label: String, among count: Int, where include: (Int) -> Bool, _ ref: (Int) -> Ref) throws(Unavailable) -> Ref {
        switch source {
        case .drawing(let draw):
            var matches = 0
            for r in 0..<count where include(r) { matches += 1 }
            guard matches > 0 else { throw Unavailable() }
            var k = Int(draw.choose(upTo: UInt64(matches - 1)))
            for r in 0..<count where include(r) {
                if k == 0 {
                    recorded.append(TraceStep.Argument(label, .ref(ref(r))))
                    return ref(r)
                }
                k -= 1
            }
            throw Unavailable()
        case .reading:
            let read = value(label, { _ in Ref(0) }, encode: { .ref($0) }, read: { step throws(TraceError) in try step.ref(label) },
                             placeholder: Ref(0))
            guard failure != nil || read.index < count else { throw Unavailable() }
            return read
        }
    }

    /// Throws `unavailable` unless `condition` holds: a condition on the state that the drawn (or replayed)
    /// arguments need.
    @inlinable
    public func require(_ condition: Bool) throws(Unavailable) {
        if !condition { throw Unavailable() }
    }

    /// The reference this step creates (`v3 = create(…)`): the next one when drawing, the trace's when replaying.
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

    /// A choice that only steers generation (which candidates to prefer) and is not part of the step: drawn
    /// when generating, false when replaying a trace.
    @inlinable
    public func flag(probability: Double = 0.5) -> Bool {
        if case .drawing(let draw) = source { return draw.chooseBool(probability: probability) }
        return false
    }

    /// A whole command of a type that writes its own trace (`TraceCodable`): drawn by `generate` (nil: no
    /// command fits, `unavailable`), decoded from the trace when replaying. For machines that keep a
    /// hand-written encoding; the command's trace names the step.
    @inlinable
    public mutating func coded<C: TraceCodable>(_ generate: (Draw) -> C?) throws(Unavailable) -> C {
        isCoded = true
        switch source {
        case .drawing(let draw):
            guard let command = generate(draw) else { throw Unavailable() }
            guard tracesCoded else {
                created = command.createdRef
                return command
            }
            let step = command.trace
            recorded = step.arguments
            created = step.result
            codedName = step.name
            return command
        case .reading(let step):
            do throws(TraceError) { return try C(trace: step) } catch {
                if failure == nil { failure = error }
                throw Unavailable()
            }
        }
    }
}
