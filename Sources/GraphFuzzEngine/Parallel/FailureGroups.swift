/// Failures found by a search that goes on after the first, grouped by signature: one bug found
/// a hundred times is one group with a count. Deterministic whatever order cases finish in: each
/// group keeps its lowest failing case, and groups are ordered by it.
package struct FailureGroups: Sendable, Equatable {
    /// One signature's failures.
    package struct Group: Sendable, Equatable {
        package var signature: FailureSignature
        /// The lowest failing case index and its failure: the one that is shrunk and reported.
        package var firstCase: Int
        package var failure: Failure
        /// Cases that failed with this signature.
        package var count: Int
    }

    private var groups: [FailureSignature: Group] = [:]

    package init() {}

    /// Records that case `index` failed with `failure`.
    package mutating func add(case index: Int, _ failure: Failure) {
        let signature = failure.signature
        if var group = groups[signature] {
            group.count += 1
            if index < group.firstCase {
                group.firstCase = index
                group.failure = failure
            }
            groups[signature] = group
        } else {
            groups[signature] = Group(signature: signature, firstCase: index, failure: failure, count: 1)
        }
    }

    /// Cases that failed, all signatures together.
    /// The signatures found.
    package var count: Int { groups.count }

    package var failingCases: Int { groups.values.reduce(0) { $0 + $1.count } }

    /// The groups, ordered by their lowest failing case.
    package var sorted: [Group] { groups.values.sorted { $0.firstCase < $1.firstCase } }
}
