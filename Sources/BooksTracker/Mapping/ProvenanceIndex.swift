import GraphStore

/// The provenance records of one context's live works, read once per mapping.
///
/// A record whose work is gone (deleted here or elsewhere, or never saved) is left out: its link is
/// only followed to the work's identifier, and the work is looked up safely (`DTOMapper.liveWork`).
struct ProvenanceIndex {
    private var records: [WorkProvenance] = []
    private var works: [Work] = []
    /// Every fetched record with the model its link holds, live or not (never read through).
    private var linked: [(record: WorkProvenance, model: PersistentModel)] = []

    init(_ context: ModelContext) {
        let fetched = context.fetch(FetchDescriptor(.attribute(
            entity: WorkProvenance.declaration.name, attribute: "recordVersion", equals: .int(WorkProvenance.currentVersion))))
        for case let record as WorkProvenance in fetched where !record.isDeleted {
            guard let model = record.related(WorkProvenance.Field.work).first else { continue }
            linked.append((record, model))
            guard let id = model.persistentModelID, let work = DTOMapper.liveWork(id, in: context) else { continue }
            records.append(record)
            works.append(work)
        }
    }

    /// Whether the record linked to `work` lists `volumeID`, without asking whether `work` is live.
    func linkedRecordHolds(_ work: Work, _ volumeID: String) -> Bool {
        linked.first { $0.model === work }?.record.volumeIDs.contains(volumeID) ?? false
    }

    /// The record of `work`, if it has one.
    func record(of work: Work) -> WorkProvenance? {
        guard let index = works.firstIndex(where: { $0 === work }) else { return nil }
        return records[index]
    }

    /// Whether `work`'s record lists `volumeID`.
    func holds(_ work: Work, _ volumeID: String) -> Bool {
        record(of: work)?.volumeIDs.contains(volumeID) ?? false
    }

    /// The live work whose record lists `volumeID`, if any.
    func work(holding volumeID: String) -> Work? {
        for (index, record) in records.enumerated() where record.volumeIDs.contains(volumeID) { return works[index] }
        return nil
    }

    /// Adds the record of a work created by this mapping.
    mutating func add(_ record: WorkProvenance, of work: Work) {
        records.append(record)
        works.append(work)
    }
}
