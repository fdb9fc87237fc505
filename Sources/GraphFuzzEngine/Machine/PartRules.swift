/// A rule that decides one labelled part of an observation (`Prediction.part(_:rule:)`).
@usableFromInline package struct PartRule: Equatable, Sendable {
    @usableFromInline package var label: String
    @usableFromInline package var rule: String

    @inlinable
    package init(label: String, rule: String) {
        self.label = label
        self.rule = rule
    }
}

/// A prediction's part rules in the order they were declared. Copies share one buffer, and a copy appends in place
/// while no other copy has appended past its end, so a chain of `part` calls (a `reduce` over a step's parts as
/// well) appends each rule once instead of copying the list at every call. Not `Sendable`, as `Prediction` is not:
/// copies that share a buffer stay on one thread. Not generic, so code not specialised for a machine's observation
/// reads it without instantiating metadata.
@usableFromInline package struct PartRules: RandomAccessCollection, Equatable {
    /// How many rules a buffer holds initialised, and how many it has room for.
    @usableFromInline struct Header {
        @usableFromInline var count: Int
        @usableFromInline var capacity: Int

        @inlinable init(count: Int, capacity: Int) {
            self.count = count
            self.capacity = capacity
        }
    }

    /// The rules, allocated with their header (one allocation, no exclusivity checks).
    @usableFromInline final class Buffer: ManagedBuffer<Header, PartRule> {
        deinit { _ = withUnsafeMutablePointers { header, rules in rules.deinitialize(count: header.pointee.count) } }
    }

    @usableFromInline var buffer: Buffer?
    /// How many of the buffer's rules are this list's (the first ones).
    @usableFromInline package private(set) var endIndex = 0

    @inlinable package init() {}

    @inlinable package var startIndex: Int { 0 }
    @inlinable package subscript(position: Int) -> PartRule { buffer!.withUnsafeMutablePointerToElements { $0[position] } }

    /// Appends `rule`: in the shared buffer when this list ends where the buffer does and it has room, else in a
    /// buffer of its own holding this list's rules.
    @inlinable
    package mutating func append(_ rule: PartRule) {
        let end = endIndex
        if let buffer, buffer.header.count == end, end < buffer.header.capacity {
            buffer.withUnsafeMutablePointers { header, rules in
                (rules + end).initialize(to: rule)
                header.pointee.count = end + 1
            }
        } else {
            let capacity = Swift.max(4, end * 2)
            let grown = unsafeDowncast(Buffer.create(minimumCapacity: capacity) { _ in Header(count: 0, capacity: capacity) }, to: Buffer.self)
            grown.withUnsafeMutablePointers { header, rules in
                if let buffer { buffer.withUnsafeMutablePointerToElements { rules.initialize(from: $0, count: end) } }
                (rules + end).initialize(to: rule)
                header.pointee.count = end + 1
            }
            buffer = grown
        }
        endIndex = end + 1
    }

    @inlinable
    package static func == (a: PartRules, b: PartRules) -> Bool { a.elementsEqual(b) }
}
