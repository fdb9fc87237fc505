/// Fault points: the faulty variants of production decisions that this package's targets select as mutants.
///
/// One mechanism for every production module. A module declares each fault beside the branch that takes it,
/// as a static property of `Fault<Owner>` (the fault's name is the property's name), and keeps the faults it
/// runs with in one `Faults<Owner>` value, empty in production:
///
///     extension Fault<StoreBehavior> {
///         /// Mutant `store-no-inverse`: setting one side of a relationship leaves its inverse alone.
///         package static var noInverseMaintenance: Self { Self() }
///     }
///     …
///     if !behavior.faults.contains(.noInverseMaintenance) { … }
///
/// A target registers a mutant as one line naming the faults it selects (`store: [.noInverseMaintenance]`).
/// Everything here has `package` access, and this module is no library product: production modules import it
/// with `package import`, so no public declaration can mention a fault, and an app that depends on the
/// products can neither name one nor select one (Tests/TargetTests/PublicSurfaceTests.swift checks it).

/// One faulty variant of a decision of `Owner` (a production type, used only as a tag).
package struct Fault<Owner>: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The declaring property's name: unique per owner, since two properties of one type cannot share it.
    package let name: String

    /// Declare a fault as `package static var someFault: Self { Self() }`: `#function` is then its name.
    package init(_ name: String = #function) { self.name = name }

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.name < rhs.name }

    /// Swift source naming the fault as an implicit member: `.noInverseMaintenance`.
    package var description: String { "." + name }
}

/// The faults of `Owner` an instance runs with. `.shipped` (none) is production.
package struct Faults<Owner>: Hashable, Sendable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// The selected faults, sorted by name, each once.
    package let selected: [Fault<Owner>]
    /// Whether this is the shipped design (no fault): stored, so that a branch site's `contains` answers from one
    /// flag. `contains` is generic and, having `package` access, is not inlined into (nor specialised for) the
    /// modules that call it; testing `selected.isEmpty` there would look up the generic metadata of
    /// `[Fault<Owner>]` on every call, while a stored flag needs none.
    package let isShipped: Bool

    package init(_ faults: Fault<Owner>...) { self.init(faults) }

    package init(arrayLiteral faults: Fault<Owner>...) { self.init(faults) }

    package init(_ faults: [Fault<Owner>]) {
        var distinct: [Fault<Owner>] = []
        for fault in faults.sorted() where distinct.last != fault { distinct.append(fault) }
        selected = distinct
        isShipped = distinct.isEmpty
    }

    /// The shipped design: no fault.
    package static var shipped: Self { Self([]) }

    /// Whether `fault` is selected: the branch site asks this. The fault is built only when one is selected: a
    /// shipped value answers from `isShipped`, without building the fault's name or looking up generic metadata.
    package func contains(_ fault: @autoclosure () -> Fault<Owner>) -> Bool {
        if isShipped { return false }
        return selected.contains(fault())
    }

    /// For a decision with several faulty designs: the design of the first selected fault of `designs`, else
    /// `shipped` (`designs` is built only when a fault is selected).
    package func design<Design>(_ designs: @autoclosure () -> KeyValuePairs<Fault<Owner>, Design>, shipped: Design) -> Design {
        if isShipped { return shipped }
        return designs().first { selected.contains($0.key) }?.value ?? shipped
    }

    /// Swift source that builds this value, `type` naming it as the code reads it: `T.shipped` or `T(.a, .b)`.
    package func swiftLiteral(_ type: String) -> String {
        isShipped ? type + ".shipped" : type + "(" + selected.map(\.description).joined(separator: ", ") + ")"
    }

    /// The selected faults as Swift source: `[.a, .b]`.
    package var description: String { "[" + selected.map(\.description).joined(separator: ", ") + "]" }
}
