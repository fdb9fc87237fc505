import Foundation
import GraphFuzzCLI

exit(GraphFuzzCommand().run(Array(CommandLine.arguments.dropFirst())))
