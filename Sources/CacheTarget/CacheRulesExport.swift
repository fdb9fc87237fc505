import CacheSpec
import GraphFuzzEngine

/// The specification's rules as the target lists them.
enum CacheRulesExport {
    static var rules: [Rule] { CacheRules.all }
}
