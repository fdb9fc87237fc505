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

    package init(_ faults: Fault<Owner>...) { self.init(faults) }

    package init(arrayLiteral faults: Fault<Owner>...) { self.init(faults) }

    package init(_ faults: [Fault<Owner>]) {
        var distinct: [Fault<Owner>] = []
        for fault in faults.sorted() where distinct.last != fault { distinct.append(fault) }
        selected = distinct
    }

    /// The shipped design: no fault.
    package static var shipped: Self { Self([]) }

    /// Whether this is the shipped design.
    package var isShipped: Bool { selected.isEmpty }

    /// Whether `fault` is selected: the branch site asks this.
    package func contains(_ fault: Fault<Owner>) -> Bool { !selected.isEmpty && selected.contains(fault) }

    /// For a decision with several faulty designs: the design of the first selected fault of `designs`, else
    /// `shipped`.
    package func design<Design>(_ designs: KeyValuePairs<Fault<Owner>, Design>, shipped: Design) -> Design {
        designs.first { contains($0.key) }?.value ?? shipped
    }

    /// Swift source that builds this value, `type` naming it as the code reads it: `T.shipped` or `T(.a, .b)`.
    package func swiftLiteral(_ type: String) -> String {
        isShipped ? type + ".shipped" : type + "(" + selected.map(\.description).joined(separator: ", ") + ")"
    }

    /// The selected faults as Swift source: `[.a, .b]`.
    package var description: String { "[" + selected.map(\.description).joined(separator: ", ") + "]" }
}
