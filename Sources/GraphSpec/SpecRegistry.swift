/// A context's registered objects by identifier (G5, G14–G16), in arrays indexed by the identifier's number:
/// temporary numbers come from one counter and row numbers from the row list, so both are small and dense.
/// Behaves as a `[SpecID: Int]` (the entity is part of the key) without hashing.
struct SpecRegistry: Sendable {
    /// Per temporary number: the object registered under it (-1 none) and the identifier's entity.
    private var temporary: [(object: Int, entity: Int)] = []
    /// Per row number: the object registered under it (-1 none) and the identifier's entity.
    private var permanent: [(object: Int, entity: Int)] = []

    /// Room for the identifiers of a typical case, reserved at the first registration.
    private static let initialCapacity = 32

    subscript(id: SpecID) -> Int? {
        get {
            let slots = id.permanent ? permanent : temporary
            guard id.number >= 0, id.number < slots.count else { return nil }
            let slot = slots[id.number]
            return slot.object >= 0 && slot.entity == id.entity ? slot.object : nil
        }
        set {
            if id.permanent { Self.set(&permanent, id, newValue) } else { Self.set(&temporary, id, newValue) }
        }
    }

    private static func set(_ slots: inout [(object: Int, entity: Int)], _ id: SpecID, _ object: Int?) {
        guard let object else {
            // Removing: only the entry with this exact key (entity included), as a dictionary would.
            if id.number >= 0, id.number < slots.count, slots[id.number].entity == id.entity { slots[id.number].object = -1 }
            return
        }
        precondition(id.number >= 0, "identifier numbers are not negative")
        if slots.capacity == 0 { slots.reserveCapacity(Self.initialCapacity) }
        // Numbers mostly arrive in order, one past the end: single appends (cheaper than a repeated-element append).
        while slots.count <= id.number { slots.append((object: -1, entity: -1)) }
        // One key per number: numbers are never shared by two entities (a temporary number is drawn once, a row
        // is written once), so a slot is only ever reused for the same identifier.
        precondition(slots[id.number].object < 0 || slots[id.number].entity == id.entity, "two identifiers share a number")
        slots[id.number] = (object, id.entity)
    }
}
