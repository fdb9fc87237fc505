/// A labelled region of the choice sequence: one state-machine step, one list element, one
/// sub-value. The shrinker deletes, zeroes and sorts spans without knowing what they mean.
@usableFromInline package struct Span: Sendable, Equatable {
    /// What the span holds; the shrinker treats steps specially (deleting whole steps first).
    @usableFromInline package struct Label: RawRepresentable, Hashable, Sendable {
        @usableFromInline package let rawValue: UInt32
        @usableFromInline package init(rawValue: UInt32) { self.rawValue = rawValue }
        @usableFromInline package static let step = Label(rawValue: 1)
        @usableFromInline package static let element = Label(rawValue: 2)
        @usableFromInline package static let list = Label(rawValue: 3)
        @usableFromInline package static let value = Label(rawValue: 4)
        @usableFromInline package static let bind = Label(rawValue: 5)
        @usableFromInline package static let config = Label(rawValue: 6)
        @usableFromInline package static let oneOf = Label(rawValue: 7)
        /// The choice of a step's action (its index among the enabled actions whose precondition holds).
        @usableFromInline package static let command = Label(rawValue: 8)
        /// Swarm testing: which actions a case may use, drawn once per case (all enabled is the zero value).
        @usableFromInline package static let swarm = Label(rawValue: 9)
        /// One try of a filtered value (`Gen.filter`): the tries the filter rejected are discarded
        /// spans, followed by the one it kept.
        @usableFromInline package static let attempt = Label(rawValue: 10)
        /// A configuration that says how the case runs, never where it starts (a machine whose
        /// `configurationStandsForSteps` is false): no configuration choice can stand for steps, so
        /// the configuration passes leave it alone.
        @usableFromInline package static let parameters = Label(rawValue: 12)
        /// One choice a configuration declares a parameter of how the case runs (`Arguments.parameters`: a backend,
        /// a file system): the configuration passes leave it alone, and `lower-parameters` tries it at zero first.
        @usableFromInline package static let parameter = Label(rawValue: 13)
        /// The scheduling decisions of one scheduled run (`Scheduler`; zeroing the span runs every job in FIFO
        /// order).
        package static let schedule = Label(rawValue: 11)

        /// Every label the engine draws, each a value of its own (the shrinker's passes tell spans apart by label).
        package static let all: [Label] = [.step, .element, .list, .value, .bind, .config, .oneOf, .command, .swarm, .attempt, .schedule, .parameters, .parameter]
    }

    @usableFromInline package let label: Label
    /// Index of the first choice in the span.
    @usableFromInline package let start: Int
    /// Index one past the last choice in the span.
    package internal(set) var end: Int
    /// Nesting depth (0 for top-level spans).
    @usableFromInline package let depth: Int
    /// Whether the generator threw away what the span drew (a filter's rejected try, closed with
    /// `Draw.endSpan(discard: true)`): the value does not depend on its choices, so deleting the
    /// span leaves the value as it was.
    package internal(set) var isDiscarded = false

    package init(label: Label, start: Int, end: Int, depth: Int, isDiscarded: Bool = false) {
        self.label = label
        self.start = start
        self.end = end
        self.depth = depth
        self.isDiscarded = isDiscarded
    }

    @usableFromInline package var count: Int { end - start }
    @usableFromInline package var range: Range<Int> { start..<end }
}
