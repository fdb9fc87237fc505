/// The one place where test cases get their randomness.
///
/// Every decision is a bounded integer `0...bound` recorded in order, with spans marking structure.
/// A `Draw` is fed by a seeded generator (search), by a recorded sequence (replay and shrinking)
/// or by raw bytes (a coverage-guided fuzzer). Generators built on it contain no shrinking code:
/// shrinking edits the recorded sequence and runs the generators again.
public final class Draw {
    /// Where choices come from.
    @usableFromInline package enum Source {
        /// Fresh random choices from a seeded generator.
        case random(SplitMix64)
        /// Recorded choices, each clamped to its bound; 0 once they run out.
        case replay([UInt64])
        /// Bytes from a fuzzer, big-endian, as many as the bound needs; 0 once they run out.
        case bytes([UInt8])
    }

    @exclusivity(unchecked) package private(set) var choices: [UInt64] = []
    /// The bound of each recorded choice (`choices[i]` is in `0...bounds[i]`): the shrinker skips
    /// choices that cannot move (bound 0) and flags (bound 1) where only larger values matter, and
    /// converting choices to the bytes a fuzzer mutates (`ChoiceBytes`) needs them.
    @exclusivity(unchecked) package private(set) var bounds: [UInt64] = []
    @exclusivity(unchecked) package private(set) var spans: [Span] = []
    /// Set by `reject()` or a filter that ran out of tries: the case is discarded, not failed.
    @exclusivity(unchecked) public private(set) var isRejected = false

    /// The source, split so that a random draw touches only its generator.
    private enum Kind { case random, replay, bytes }
    @exclusivity(unchecked) private var kind: Kind
    @exclusivity(unchecked) private var rng: SplitMix64
    @exclusivity(unchecked) private var recorded: [UInt64]
    @exclusivity(unchecked) private var bytes: [UInt8]
    @exclusivity(unchecked) private var cursor = 0
    /// Choices drawn so far (`choices.count` when they are kept).
    @exclusivity(unchecked) private var drawn = 0
    /// The indices in `spans` of the spans begun and not ended yet, outermost first.
    @exclusivity(unchecked) package private(set) var openSpans: [Int] = []
    /// Whether `choices`, `bounds` and `spans` are kept. A search's cases that only need an outcome
    /// draw the same values from an unrecorded draw (`init(unrecordedSeed:)`); a failing case is run
    /// again from its seed, recorded, to shrink it.
    @usableFromInline let keepsRecord: Bool
    /// A random case stops drawing fresh values beyond this many choices (draws return 0).
    package let maxChoices: Int

    package convenience init(_ source: Source, maxChoices: Int = 1 << 16) {
        self.init(source, maxChoices: maxChoices, keepsRecord: true)
    }

    init(_ source: Source, maxChoices: Int, keepsRecord: Bool) {
        switch source {
        case .random(let generator): (kind, rng, recorded, bytes) = (.random, generator, [], [])
        case .replay(let values): (kind, rng, recorded, bytes) = (.replay, SplitMix64(seed: 0), values, [])
        case .bytes(let raw): (kind, rng, recorded, bytes) = (.bytes, SplitMix64(seed: 0), [], raw)
        }
        self.maxChoices = maxChoices
        self.keepsRecord = keepsRecord
        if keepsRecord {
            choices.reserveCapacity(64)
            bounds.reserveCapacity(64)
        }
    }

    /// Fresh random choices from `seed`: the same seed draws the same values. A random case stops drawing
    /// fresh values after `maxChoices` choices (every further draw is 0).
    public convenience init(seed: UInt64, maxChoices: Int = 1 << 16) {
        self.init(.random(SplitMix64(seed: seed)), maxChoices: maxChoices)
    }

    /// A random draw that keeps no choices, bounds or spans (`sequence` is empty): it draws the same
    /// values as `init(seed:)`, for runs that read only the outcome. `restart(seed:)` reuses it.
    @usableFromInline
    convenience init(unrecordedSeed seed: UInt64) {
        self.init(.random(SplitMix64(seed: seed)), maxChoices: 1 << 16, keepsRecord: false)
    }

    /// Starts over as a fresh random draw from `seed` (the next case of a search).
    @usableFromInline
    func restart(seed: UInt64) {
        kind = .random
        rng = SplitMix64(seed: seed)
        cursor = 0
        drawn = 0
        isRejected = false
        if keepsRecord {
            choices.removeAll(keepingCapacity: true)
            bounds.removeAll(keepingCapacity: true)
            spans.removeAll(keepingCapacity: true)
            openSpans.removeAll(keepingCapacity: true)
        }
    }

    /// The choices of a recorded sequence (`sequence` of an earlier draw), each clamped to its bound;
    /// every draw past the end is 0, the simplest value.
    public convenience init(replaying sequence: ChoiceSequence) {
        self.init(.replay(sequence.values))
    }

    /// True when choices come from a seeded generator rather than a recording.
    package var isRandom: Bool { kind == .random }

    // MARK: Drawing

    /// A choice in `0...bound`. Random draws favour the edges and small values, where bugs live.
    @inline(__always)
    public func choose(upTo bound: UInt64) -> UInt64 {
        choose(upTo: bound) { rng in
            switch rng.next(upTo: 15) {
            case 0: return 0
            case 1: return bound
            case 2...6: return rng.next(upTo: Swift.min(bound, 15))
            default: return rng.next(upTo: bound)
            }
        }
    }

    /// A choice in `0...bound`, uniform when random.
    @inline(__always)
    public func chooseUniform(upTo bound: UInt64) -> UInt64 {
        choose(upTo: bound) { rng in rng.next(upTo: bound) }
    }

    /// A boolean recorded as 0 (false, the simpler) or 1, true with `probability` when random.
    @inline(__always)
    public func chooseBool(probability: Double = 0.5) -> Bool {
        choose(upTo: 1) { rng in
            Double(rng.next() >> 11) * 0x1.0p-53 < probability ? 1 : 0
        } == 1
    }

    /// An index into `weights`, recorded as the index; index 0 is the simplest.
    public func chooseWeighted(_ weights: [UInt32]) -> Int {
        precondition(!weights.isEmpty, "chooseWeighted needs at least one weight")
        return Int(choose(upTo: UInt64(weights.count - 1)) { rng in
            let total = weights.reduce(UInt64(0)) { $0 + UInt64($1) }
            var pick = rng.next(upTo: Swift.max(total, 1) - 1)
            for (index, weight) in weights.enumerated() {
                if pick < UInt64(weight) { return UInt64(index) }
                pick -= UInt64(weight)
            }
            return UInt64(weights.count - 1)
        })
    }

    @inline(__always)
    private func choose(upTo bound: UInt64, random: (inout SplitMix64) -> UInt64) -> UInt64 {
        let value: UInt64
        switch kind {
        case .random:
            value = drawn >= maxChoices ? 0 : random(&rng)
        case .replay:
            value = cursor < recorded.count ? Swift.min(recorded[cursor], bound) : 0
            cursor += 1
        case .bytes:
            var raw: UInt64 = 0
            var needed = ChoiceBytes.width(of: bound)
            while needed > 0 {
                raw = (raw << 8) | UInt64(cursor < bytes.count ? bytes[cursor] : 0)
                cursor += 1
                needed -= 1
            }
            value = bound == .max ? raw : raw % (bound &+ 1)
        }
        drawn += 1
        if keepsRecord {
            choices.append(value)
            bounds.append(bound)
        }
        return value
    }

    /// A choice that can only be 0 (the sign of a range that excludes negatives): recorded with
    /// bound 0 so later choices keep their positions, but it takes no randomness and no bytes.
    @inline(__always)
    package func forcedZero() {
        if kind == .replay { cursor += 1 }
        drawn += 1
        if keepsRecord {
            choices.append(0)
            bounds.append(0)
        }
    }

    // MARK: Structure

    /// Opens a span; every `beginSpan` is matched by one `endSpan`.
    @inline(__always)
    @usableFromInline package func beginSpan(_ label: Span.Label) {
        guard keepsRecord else { return }
        openSpans.append(spans.count)
        spans.append(Span(label: label, start: choices.count, end: choices.count, depth: openSpans.count - 1))
    }

    /// Closes the innermost open span. `discard` marks what it drew as thrown away (a filter's
    /// rejected try, any draw a generator makes again): the value does not depend on those choices,
    /// and the shrinker deletes them (remove-discarded).
    @inline(__always)
    @usableFromInline package func endSpan(discard: Bool = false) {
        guard keepsRecord else { return }
        let index = openSpans.removeLast()
        spans[index].end = choices.count
        if discard { spans[index].isDiscarded = true }
    }

    /// Runs `body` inside a span labelled `label`.
    @inline(__always)
    @usableFromInline package func span<T>(_ label: Span.Label, _ body: () -> T) -> T {
        beginSpan(label)
        defer { endSpan() }
        return body()
    }

    /// Marks the case as not meeting its assumptions: it is discarded, never reported.
    public func reject() { isRejected = true }

    /// The recorded choices, including zeros read past the end of a replayed sequence (none for an
    /// unrecorded draw).
    public var sequence: ChoiceSequence { ChoiceSequence(choices) }
}
