/// A labelled region of the choice sequence: one state-machine step, one list element, one
/// sub-value. The shrinker deletes, zeroes and sorts spans without knowing what they mean.
public struct Span: Sendable, Equatable {
    /// What the span holds; the shrinker treats steps specially (deleting whole steps first).
    public struct Label: RawRepresentable, Hashable, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let step = Label(rawValue: 1)
        public static let element = Label(rawValue: 2)
        public static let list = Label(rawValue: 3)
        public static let value = Label(rawValue: 4)
        public static let bind = Label(rawValue: 5)
        public static let config = Label(rawValue: 6)
        public static let oneOf = Label(rawValue: 7)
        /// The choice of a step's action (its index among the enabled actions whose precondition holds).
        public static let command = Label(rawValue: 8)
        /// Swarm testing: which actions a case may use, drawn once per case (all enabled is the zero value).
        public static let swarm = Label(rawValue: 9)
        /// One try of a filtered value (`Gen.filter`): the tries the filter rejected are discarded
        /// spans, followed by the one it kept.
        public static let attempt = Label(rawValue: 10)
    }

    public let label: Label
    /// Index of the first choice in the span.
    public let start: Int
    /// Index one past the last choice in the span.
    public internal(set) var end: Int
    /// Nesting depth (0 for top-level spans).
    public let depth: Int
    /// Whether the generator threw away what the span drew (a filter's rejected try, closed with
    /// `Draw.endSpan(discard: true)`): the value does not depend on its choices, so deleting the
    /// span leaves the value as it was.
    public internal(set) var isDiscarded = false

    public var count: Int { end - start }
    public var range: Range<Int> { start..<end }
}
