extension ModelContainer {
    /// Closes the container as an app that quits: unsaved changes are lost, every model it registered is
    /// invalidated (reads trap, R14), the store file is closed. Idempotent.
    public func close() {
        for model in registeredEver where model.lifecycle == .registered || model.lifecycle == .detached {
            model.lifecycle = .invalidated
        }
        tearDown()
        if !isClosed { storage.close() }
        isClosed = true
    }

    /// An app relaunch: closes this container (`close()`) and opens a new one on the same store — the same
    /// rows in memory, or the same file read anew. In the new container no model is registered, permanent
    /// identifiers resolve to the same rows, temporary identifiers of earlier launches never resolve (R4, R17),
    /// and unsaved changes are gone. Temporary numbers continue after the old container's. The transaction
    /// grouping carries over; a write interruption does not.
    public func relaunch() throws(StoreError) -> ModelContainer {
        let temporaries = nextTemporary
        close()
        let container: ModelContainer
        if let memory = storage as? MemoryRowStorage {
            memory.reopen()
            container = ModelContainer(schema: schema, configuration: configuration, storage: memory)
        } else {
            let layout = (storage as? SQLiteRowStorage)?.layout
            let reopened = try SQLiteRowStorage(path: storage.location, schema: schema,
                                                storeIdentifier: configuration.storeIdentifier, layout: layout)
            container = ModelContainer(schema: schema, configuration: configuration, storage: reopened)
        }
        container.nextTemporary = temporaries
        container.saveTransactions = saveTransactions
        return container
    }
}
