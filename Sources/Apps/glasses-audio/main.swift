import GlassesAudioCLI

await EntryPoint.main()
