/** The injectable model runner: the detector's only dependency on an inference engine. */
export interface ModelRunner {
  /** Runs the network on a [batch, 3, H, W] tensor (batch 1 unless given); returns the named outputs with their dims. */
  run(input: Float32Array, height: number, width: number, batch?: number): Promise<Record<string, { data: Float32Array; dims: readonly number[] }>>;
  close(): Promise<void>;
}
