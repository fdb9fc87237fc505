/// The user's edits on one device (S9: visible at once, in the read order of the phase), each recorded as the
/// device's unpushed changes.
extension SyncSpecModel {
    /// A new project on a device; returns its index.
    public mutating func createProject(_ device: Int, kind: SpecProjectKind) -> Int {
        let index = append(SpecObject(isProject: true, kind: kind, owner: -1, collection: .glassItems, code: 0,
                                      sortKey: takeID(origin: device + 1)))
        var unpushed = SpecChanges.created
        if writesBlobs { for collection in kind.collections { unpushed.insert(.blob(collection)) } }
        locals[device][index] = SpecLocal(state: .present, unpushed: unpushed)
        return index
    }

    /// A new item at the end of an array (S9: after every item the device holds there); returns its index.
    public mutating func addItem(_ device: Int, project: Int, _ collection: SpecCollection, code: Int) -> Int {
        let index = append(SpecObject(isProject: false, kind: objects[project].kind, owner: Int32(project),
                                      collection: collection, code: code, sortKey: takeID(origin: device + 1)))
        locals[device][index] = SpecLocal(state: .present, quantity: collection.initialQuantity,
                                          unpushed: usesEntities ? [.created, .quantity, .placement] : [])
        if collection.isOrdered { place(device, index, at: nil) }
        edited(device, index)
        return index
    }

    public mutating func removeItem(_ device: Int, item: Int) {
        if usesEntities {
            locals[device][item].state = .deletedPending
            locals[device][item].unpushed.insert(.deletion)
        } else {
            locals[device][item].state = .absent
        }
        edited(device, item)
    }

    /// Moves an item of an ordered array to `index` among the others (S9): a new placement of that item alone
    /// (its record is the only one the move changes, S4).
    public mutating func moveItem(_ device: Int, item: Int, to index: Int) {
        place(device, item, at: index)
        if usesEntities { locals[device][item].unpushed.insert(.placement) }
        edited(device, item)
    }

    public mutating func setQuantity(_ device: Int, item: Int, _ quantity: Int) {
        locals[device][item].quantity = quantity
        if usesEntities { locals[device][item].unpushed.insert(.quantity) }
        edited(device, item)
    }

    /// The item's array changed: its blob is written (phases 0–2).
    private mutating func edited(_ device: Int, _ item: Int) {
        if writesBlobs { locals[device][Int(objects[item].owner)].unpushed.insert(.blob(objects[item].collection)) }
    }

    /// The number of items in the array `item` belongs to, on a device.
    public func arrayCount(_ device: Int, of item: Int) -> Int {
        order(device, Int(objects[item].owner), objects[item].collection).count
    }
}
