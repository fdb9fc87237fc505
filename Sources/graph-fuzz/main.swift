import Foundation
import GraphFuzzCLI

exit(GraphFuzzCommand.executable().run(Array(CommandLine.arguments.dropFirst())))
