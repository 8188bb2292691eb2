// Encodes the photos named on the command line with DaybookImages, as a build would:
// a cold run into an empty cache, then a warm run that must reuse everything.
// Usage: daybook-bench-images <cache folder> <photo>...
import DaybookImages
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard let cachePath = arguments.first, arguments.count > 1 else {
    FileHandle.standardError.write(Data("usage: daybook-bench-images <cache folder> <photo>...\n".utf8))
    exit(2)
}
let cache = URL(fileURLWithPath: cachePath)
let sources = arguments.dropFirst().map { path in
    ImageSource.file(URL(fileURLWithPath: path), path: "images/" + URL(fileURLWithPath: path).lastPathComponent)
}
let pipeline: ImagePipeline
do { pipeline = try ImagePipeline(cacheFolder: cache) } catch {
    print(error)
    exit(1)
}
for run in ["cold", "warm"] {
    let start = Date()
    let batch = pipeline.process(Array(sources))
    let seconds = Date().timeIntervalSince(start)
    for case .failure(let error) in batch.results { print(error) }
    let rate = Double(sources.count) / seconds
    print(String(format: "%@: %@ in %.2f s (%.2f photos/s)", run, batch.summary, seconds, rate))
}
