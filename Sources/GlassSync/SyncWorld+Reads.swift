extension SyncWorld {
    /// What the app reads for one array of a project: from the blob in phases 0 and 1 (and with
    /// the blob-only design), from the entities in phases 2 and 3. Unordered arrays read sorted by identity.
    public func read(on device: Int, project: RecordID, _ collection: ProjectCollection) throws(SyncError) -> [ItemRead] {
        readsEntities ? try readEntities(on: device, project: project, collection)
                      : try readBlob(on: device, project: project, collection)
    }

    /// During dual-write (phases 1 and 2), the representation the app does not read; nil otherwise.
    /// With the blob-only design the blob is the only representation, so it is its own mirror.
    public func readMirror(on device: Int, project: RecordID, _ collection: ProjectCollection) throws(SyncError) -> [ItemRead]? {
        guard phase == .dualWrite || phase == .entityReads else { return nil }
        if strategy.contains(.blobsOnlyStorage) { return try readBlob(on: device, project: project, collection) }
        return readsEntities ? try readBlob(on: device, project: project, collection)
                             : try readEntities(on: device, project: project, collection)
    }

    func readBlob(on device: Int, project: RecordID, _ collection: ProjectCollection) throws(SyncError) -> [ItemRead] {
        let p = try projectSlot(device, project)
        let kind = devices[device].projects[p].kind
        guard let slot = kind.slot(of: collection) else { throw SyncError.collectionNotOnModel(collection, kind) }
        guard slot < devices[device].projects[p].blobs.count else { return [] }
        var result = devices[device].projects[p].blobs[slot].map { ItemRead(id: $0.id, code: $0.code, quantity: $0.quantity) }
        if !collection.isOrdered { result.sort { $0.id < $1.id } }
        return result
    }

    func readEntities(on device: Int, project: RecordID, _ collection: ProjectCollection) throws(SyncError) -> [ItemRead] {
        let p = try projectSlot(device, project)
        let kind = devices[device].projects[p].kind
        guard kind.slot(of: collection) != nil else { throw SyncError.collectionNotOnModel(collection, kind) }
        let items = devices[device].items
        return DeviceStore.entityOrder(items, of: project, collection) {
            ItemRead(id: items[$0].id, code: items[$0].code, quantity: items[$0].quantity)
        }
    }
}
