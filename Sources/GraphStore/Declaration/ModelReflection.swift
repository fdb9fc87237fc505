@_spi(Reflection) import Swift

/// Where a model class keeps its declared properties: the offset of each `@Attribute` and `@Relationship` wrapper in
/// its objects, in the entity's order. Taken once per class when a schema is made; a model's values move between
/// its wrappers and the store's storage through it (`PersistentModel.adopt`), never through per-object reflection.
struct ModelLayout {
    let modelClass: PersistentModel.Type
    let attributeOffsets: [Int]
    let relationshipOffsets: [Int]
}

/// What a model class declares: its entity (inverses not yet resolved), its layout, and per relationship the
/// destination class and the `inverse:` key path, if any.
struct ModelDeclaration {
    var entity: EntitySchema
    let layout: ModelLayout
    let destinations: [PersistentModel.Type]
    let inverses: [AnyKeyPath?]
}

/// Reads model classes: their stored properties through the standard library's reflection (`_forEachField`,
/// field offsets of a class, once per class), and what each wrapper declares from a prototype made with the
/// class's `required init()`.
enum ModelReflection {
    /// `_EachFieldOptions.classType` (the reflection of a class's fields), a `static var` Swift 6 does not let code read.
    private static let classType = _EachFieldOptions(rawValue: 1 << 0)

    /// The stored properties of `modelClass` below `PersistentModel`, in declaration order.
    static func storedProperties(of modelClass: PersistentModel.Type) -> [(name: String, offset: Int, type: Any.Type)] {
        var base: Set<Int> = []
        _ = _forEachField(of: PersistentModel.self, options: classType) { _, offset, _, _ in
            base.insert(offset)
            return true
        }
        var properties: [(name: String, offset: Int, type: Any.Type)] = []
        _ = _forEachField(of: modelClass, options: classType) { name, offset, type, _ in
            if !base.contains(offset) { properties.append((String(cString: name), offset, type)) }
            return true
        }
        return properties
    }

    /// The entity name of `modelClass`: its name, as SwiftData names it — what `String(describing:)` prints for the
    /// class, read from its metadata without the printing (which asks whether the metatype conforms to the
    /// description protocols: a scan of every conformance in the process, the first time, for each class).
    static func entityName(_ modelClass: PersistentModel.Type) -> String { _typeName(modelClass, qualified: false) }

    /// What `modelClass` declares. An initial value that differs between two new objects (`= Date.now`, `= UUID()`)
    /// gives the attribute its type's placeholder as the schema's default, so the schema is the same in every run.
    static func declaration(of modelClass: PersistentModel.Type) throws(SchemaError) -> ModelDeclaration {
        let entityName = entityName(modelClass)
        let first = modelClass.init(), second = modelClass.init()
        var attributes: [AttributeSchema] = [], relationships: [RelationshipSchema] = []
        var attributeOffsets: [Int] = [], relationshipOffsets: [Int] = []
        var destinations: [PersistentModel.Type] = [], inverses: [AnyKeyPath?] = []
        for property in storedProperties(of: modelClass) {
            let name = property.name.hasPrefix("_") ? String(property.name.dropFirst()) : property.name
            if let declared = property.type as? any DeclaredAttribute.Type {
                let field = first.field(at: property.offset, as: AttributeField.self) { $0.pointee }
                let again = second.field(at: property.offset, as: AttributeField.self) { $0.pointee.value }
                attributes.append(AttributeSchema(name, declared.kind, optional: declared.isOptional,
                                                  default: field.value == again ? field.value : declared.placeholder,
                                                  range: field.options.range, length: field.options.length, unique: field.options.isUnique))
                attributeOffsets.append(property.offset)
            } else if let declared = property.type as? any DeclaredRelationship.Type {
                let field = first.field(at: property.offset, as: RelationshipField.self) { $0.pointee }
                let declaration = field.declaration ?? RelationshipDeclaration(deleteRule: .nullify, minimumModelCount: nil, maximumModelCount: nil, inverse: { nil })
                relationships.append(RelationshipSchema(name, to: Self.entityName(declared.destination), toMany: declared.isToMany, inverse: nil,
                                                        deleteRule: declaration.deleteRule, optional: declared.isOptional,
                                                        minCount: declaration.minimumModelCount.flatMap { $0 > 0 ? $0 : nil },
                                                        maxCount: declaration.maximumModelCount.flatMap { $0 > 0 ? $0 : nil }))
                relationshipOffsets.append(property.offset)
                destinations.append(declared.destination)
                inverses.append(declaration.inverse())
            } else if !(property.type is any DeclaredTransient.Type) {
                throw SchemaError(entity: entityName, relationship: name,
                                  message: "a stored property that is neither @Attribute, @Relationship nor @Transient (GraphStore persists what they declare)")
            }
        }
        return ModelDeclaration(entity: EntitySchema(name: entityName, attributes: attributes, relationships: relationships),
                                layout: ModelLayout(modelClass: modelClass, attributeOffsets: attributeOffsets, relationshipOffsets: relationshipOffsets),
                                destinations: destinations, inverses: inverses)
    }

    /// The declared property `keyPath` reads on objects of `modelClass` (`\Edition.work` → ("work", relationship)):
    /// a new object's wrappers are marked, the key path is read, and the one wrapper it went through says which.
    /// Nil when the key path reads no declared property, or more than one (a computed property).
    static func property(_ keyPath: AnyKeyPath, of modelClass: PersistentModel.Type) -> (name: String, isRelationship: Bool)? {
        let probe = modelClass.init()
        var declared: [(name: String, offset: Int, isRelationship: Bool)] = []
        for property in storedProperties(of: modelClass) {
            let name = property.name.hasPrefix("_") ? String(property.name.dropFirst()) : property.name
            if property.type is any DeclaredAttribute.Type {
                probe.field(at: property.offset, as: AttributeField.self) { $0.pointee.slot = AttributeField.probing }
                declared.append((name, property.offset, false))
            } else if property.type is any DeclaredRelationship.Type {
                probe.field(at: property.offset, as: RelationshipField.self) { $0.pointee.slot = AttributeField.probing }
                declared.append((name, property.offset, true))
            }
        }
        _ = probe[keyPath: keyPath]
        let read = declared.filter { property in
            property.isRelationship ? probe.field(at: property.offset, as: RelationshipField.self) { $0.pointee.slot == AttributeField.probed }
                : probe.field(at: property.offset, as: AttributeField.self) { $0.pointee.slot == AttributeField.probed }
        }
        guard read.count == 1 else { return nil }
        return (read[0].name, read[0].isRelationship)
    }
}

extension PersistentModel {
    /// Runs `body` with the stored property at byte `offset` of this object, a wrapper of which `T` is the only
    /// stored property (`AttributeField`, `RelationshipField`).
    func field<T, R>(at offset: Int, as type: T.Type, _ body: (UnsafeMutablePointer<T>) -> R) -> R {
        body(Unmanaged.passUnretained(self).toOpaque().advanced(by: offset).assumingMemoryBound(to: T.self))
    }
}
