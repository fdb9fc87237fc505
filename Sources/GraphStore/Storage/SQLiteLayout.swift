/// The tables of a schema in an SQLite store, named as Core Data names them: a table `Z<ENTITY>` per entity
/// with an integer primary key `Z_PK` (the `N` of `x-coredata://STORE/Entity/pN`), a column `Z<ATTRIBUTE>` per
/// attribute, three columns `Z<RELATIONSHIP>`, `…ENT`, `…ISSUER` per to-one relationship, and a join table
/// `Z_<ENTITY>_<RELATIONSHIP>` per to-many relationship (source, position, destination), plus `Z_PRIMARYKEY`
/// (the last number issued per entity) and `Z_METADATA` (store identifier, launch count, layout).
///
/// Each side of a relationship is stored as the model holds it, so a store whose inverses disagree (a
/// mutant without inverse maintenance) reads back exactly as it was saved.
struct SQLiteLayout {
    struct Table {
        var name: String
        var attributeColumns: [String]
        /// Per relationship: the column of a to-one, nil for a to-many.
        var toOneColumns: [String?]
        /// Per relationship: the join table of a to-many, nil for a to-one.
        var joinTables: [String?]
    }

    let tables: [Table]
    /// A line per entity naming its attributes (with kinds) and relationships: two schemas whose signatures
    /// match store their rows the same way.
    let signature: String

    init(schema: Schema) throws(StoreError) {
        var tables: [Table] = []
        var lines: [String] = []
        var tableNames: Set<String> = ["Z_METADATA", "Z_PRIMARYKEY"]
        for entity in schema.entities {
            let name = "Z" + entity.name.uppercased()
            var columns: Set<String> = ["Z_PK"]
            func column(_ base: String) throws(StoreError) -> String {
                let name = "Z" + base.uppercased()
                for candidate in [name, name + "ENT", name + "ISSUER"] where !columns.insert(candidate).inserted {
                    throw StoreError(.schemaMismatch, path: "", message: "\(entity.name).\(base): column \(candidate) is taken")
                }
                return name
            }
            var table = Table(name: name, attributeColumns: [], toOneColumns: [], joinTables: [])
            for attribute in entity.attributes { table.attributeColumns.append(try column(attribute.name)) }
            for relationship in entity.relationships {
                if relationship.isToMany {
                    let join = "Z_\(entity.name.uppercased())_\(relationship.name.uppercased())"
                    guard tableNames.insert(join).inserted else {
                        throw StoreError(.schemaMismatch, path: "", message: "\(entity.name).\(relationship.name): table \(join) is taken")
                    }
                    table.toOneColumns.append(nil)
                    table.joinTables.append(join)
                } else {
                    table.toOneColumns.append(try column(relationship.name))
                    table.joinTables.append(nil)
                }
            }
            guard tableNames.insert(name).inserted else {
                throw StoreError(.schemaMismatch, path: "", message: "\(entity.name): table \(name) is taken")
            }
            tables.append(table)
            let attributes = entity.attributes.map { "\($0.name):\($0.kind.rawValue)" }
            let relationships = entity.relationships.map { "\($0.name):\($0.isToMany ? "*" : "")\($0.destination)" }
            lines.append("\(entity.name)(\(attributes.joined(separator: ",")))[\(relationships.joined(separator: ","))]")
        }
        self.tables = tables
        self.signature = lines.joined(separator: "\n")
    }

    /// The statements that create an empty store.
    func creationSQL(storeIdentifier: String) -> [String] {
        var sql = [
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER NOT NULL, Z_UUID TEXT NOT NULL, Z_LAUNCH INTEGER NOT NULL, Z_LAYOUT TEXT NOT NULL)",
            "INSERT INTO Z_METADATA VALUES (1, \(quoted(storeIdentifier)), 0, \(quoted(signature)))",
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME TEXT NOT NULL, Z_MAX INTEGER NOT NULL)",
        ]
        for (e, table) in tables.enumerated() {
            var columns = ["Z_PK INTEGER PRIMARY KEY"] + table.attributeColumns
            for case let column? in table.toOneColumns {
                columns += ["\(column) INTEGER", "\(column)ENT INTEGER", "\(column)ISSUER TEXT"]
            }
            sql.append("CREATE TABLE \(table.name) (\(columns.joined(separator: ", ")))")
            sql.append("INSERT INTO Z_PRIMARYKEY VALUES (\(e), \(quoted(table.name)), 0)")
            for case let join? in table.joinTables {
                sql.append("CREATE TABLE \(join) (Z_SRC INTEGER NOT NULL, Z_ORDER INTEGER NOT NULL, Z_DESTENT INTEGER NOT NULL, "
                           + "Z_DEST INTEGER NOT NULL, Z_DESTISSUER TEXT, PRIMARY KEY (Z_SRC, Z_ORDER)) WITHOUT ROWID")
            }
        }
        return sql
    }

    private func quoted(_ text: String) -> String { "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'" }
}

