#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GraphFuzzCLI

exit(GraphFuzzCommand.executable().run(Array(CommandLine.arguments.dropFirst())))
