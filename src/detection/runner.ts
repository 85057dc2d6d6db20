/** The injectable model runner: the detector's only dependency on an inference engine. */
export interface ModelRunner {
  /** Runs the network on a [1, 3, H, W] tensor; returns the named outputs with their dims. */
  run(input: Float32Array, height: number, width: number): Promise<Record<string, { data: Float32Array; dims: readonly number[] }>>;
  close(): Promise<void>;
}
