import Foundation
import MorningProofCLI

exit(await MorningProofCommand.run(arguments: Array(CommandLine.arguments.dropFirst())))
