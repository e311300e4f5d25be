import ArgumentParser
import GIF

@main
struct GIFCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "gif", abstract: "Inspect GIFs.")
}
