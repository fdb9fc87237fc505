import GraphStore

/// The entities of a device's GraphStore container: the three project models with their
/// transformable array attributes, the relationship entities that replace the arrays (seed 001),
/// and two bookkeeping entities of the sync layer (the change tag last fetched of a record the
/// device holds no row for, as Core Data's CloudKit mirroring keeps record metadata, and the
/// device's running record number). A row's own change tag is its `changeTag` attribute.
///
/// Every attribute is optional or has a default, every relationship is optional with an inverse,
/// and no delete rule is `deny`, so the schema passes the CloudKit check (R23, R24).
enum DeviceEntity: Int, CaseIterable, Sendable {
    case log, plan, step
    case logGlassItem, planGlassItem, stepGlassItem
    case tag, technique, referenceUrl
    case recordTag, deviceState

    /// The entity of a project model.
    static func project(_ kind: ProjectKind) -> DeviceEntity {
        switch kind {
        case .log: return .log
        case .plan: return .plan
        case .step: return .step
        }
    }

    /// The relationship entity of an array of a project model.
    static func item(_ kind: ProjectKind, _ collection: ProjectCollection) -> DeviceEntity {
        switch collection {
        case .glassItems: return kind == .log ? .logGlassItem : kind == .plan ? .planGlassItem : .stepGlassItem
        case .tags: return .tag
        case .techniques: return .technique
        case .referenceUrls: return .referenceUrl
        }
    }

    /// The entities that hold project rows and item rows.
    static let projects: [DeviceEntity] = [.log, .plan, .step]
    static let items: [DeviceEntity] = [.logGlassItem, .planGlassItem, .stepGlassItem, .tag, .technique, .referenceUrl]

    var name: String {
        switch self {
        case .log: return ProjectKind.log.rawValue
        case .plan: return ProjectKind.plan.rawValue
        case .step: return ProjectKind.step.rawValue
        case .logGlassItem: return ProjectCollection.glassItems.entityName(on: .log)
        case .planGlassItem: return ProjectCollection.glassItems.entityName(on: .plan)
        case .stepGlassItem: return ProjectCollection.glassItems.entityName(on: .step)
        case .tag: return ProjectCollection.tags.entityName(on: .log)
        case .technique: return ProjectCollection.techniques.entityName(on: .log)
        case .referenceUrl: return ProjectCollection.referenceUrls.entityName(on: .plan)
        case .recordTag: return "SyncRecordTag"
        case .deviceState: return "SyncDeviceState"
        }
    }

    /// A new, unregistered model of this entity, every attribute at its default.
    func make() -> PersistentModel { Self.deviceSchema.newModel(name)! }

    /// The declared shape.
    var schema: EntitySchema {
        switch self {
        case .log, .plan, .step:
            let kind = ProjectKind.allCases[rawValue]
            return EntitySchema(
                name: name,
                attributes: ProjectColumn.common + kind.collections.map {
                    AttributeSchema($0.blobAttribute(on: kind), .string, optional: true)
                },
                relationships: kind.collections.map {
                    RelationshipSchema(Self.relationshipName($0), to: Self.item(kind, $0).name, toMany: true,
                                       inverse: Self.parentName(kind, $0), deleteRule: .cascade)
                })
        case .logGlassItem, .planGlassItem, .stepGlassItem, .tag, .technique, .referenceUrl:
            let collection = itemCollection
            var attributes = ItemColumn.common
            if collection.hasQuantity {
                attributes += [AttributeSchema("quantity", .int, default: .int(0)), AttributeSchema("notes", .string, default: .string(""))]
            }
            if collection.isOrdered { attributes.append(AttributeSchema("position", .int, default: .int(0))) }
            let owners = ProjectKind.allCases.filter { $0.slot(of: collection) != nil && Self.item($0, collection) == self }
            return EntitySchema(
                name: name, attributes: attributes,
                relationships: owners.map {
                    RelationshipSchema(Self.parentName($0, collection), to: $0.rawValue, toMany: false,
                                       inverse: Self.relationshipName(collection), deleteRule: .nullify)
                })
        case .recordTag:
            return EntitySchema(name: name, attributes: [AttributeSchema("record", .int, default: .int(0)),
                                                         AttributeSchema("changeTag", .int, default: .int(0))],
                                relationships: [])
        case .deviceState:
            return EntitySchema(name: name, attributes: [AttributeSchema("origin", .int, default: .int(0)),
                                                         AttributeSchema("nextSerial", .int, default: .int(1))],
                                relationships: [])
        }
    }

    /// The array an item entity holds.
    var itemCollection: ProjectCollection {
        switch self {
        case .logGlassItem, .planGlassItem, .stepGlassItem: return .glassItems
        case .tag: return .tags
        case .technique: return .techniques
        default: return .referenceUrls
        }
    }

    /// The to-many relationship of a project model that replaces an array.
    static func relationshipName(_ collection: ProjectCollection) -> String { collection.rawValue }

    /// The to-one relationship from an item entity to its project (ProjectTag has one per model).
    static func parentName(_ kind: ProjectKind, _ collection: ProjectCollection) -> String {
        collection == .tags ? (kind == .log ? "log" : "plan") : "project"
    }

    /// The schema of a device's container: the entities declared without model classes (the sync layer reads and
    /// writes rows by slot).
    static let deviceSchema: Schema = {
        do {
            return try Schema(entities: allCases.map(\.schema))
        } catch {
            preconditionFailure("the device schema does not hold together: \(error)")
        }
    }()
}

/// Attribute slots of a project row; the blob attributes follow, one per array slot.
enum ProjectColumn {
    static let record = 0, dirty = 1, order = 2, changeTag = 3, firstBlob = 4
    static let common = [AttributeSchema("record", .int, default: .int(0)), AttributeSchema("dirty", .int, default: .int(0)),
                         AttributeSchema("localOrder", .int, default: .int(0)), AttributeSchema("changeTag", .int, default: .int(0))]
}

/// Attribute slots of an item row; `quantity` and `notes` follow on glass items, then `position` on ordered arrays.
enum ItemColumn {
    static let record = 0, dirty = 1, order = 2, state = 3, owner = 4, ownerKind = 5, code = 6, changeTag = 7, extra = 8
    static let common = [AttributeSchema("record", .int, default: .int(0)), AttributeSchema("dirty", .int, default: .int(0)),
                         AttributeSchema("localOrder", .int, default: .int(0)), AttributeSchema("state", .int, default: .int(0)),
                         AttributeSchema("owner", .int, default: .int(0)), AttributeSchema("ownerKind", .int, default: .int(0)),
                         AttributeSchema("code", .int, default: .int(0)), AttributeSchema("changeTag", .int, default: .int(0))]

    static func quantity(_ c: ProjectCollection) -> Int? { c.hasQuantity ? extra : nil }
    static func notes(_ c: ProjectCollection) -> Int? { c.hasQuantity ? extra + 1 : nil }
    static func position(_ c: ProjectCollection) -> Int? { c.isOrdered ? (c.hasQuantity ? extra + 2 : extra) : nil }
}
