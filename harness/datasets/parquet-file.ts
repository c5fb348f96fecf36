/**
 * Dataset releases published as parquet on the Hugging Face hub: the address of a file at a
 * revision, and the rows of a (downloaded, verified) parquet file as plain objects.
 */
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet'
import { datasetFilePath, type DatasetFile, type JsonRecord, type ResolveOptions } from './dataset-file.ts'

/**
 * `https://huggingface.co/datasets/<repo>/resolve/<revision>/<path>`; `HF_ENDPOINT` (the
 * variable huggingface_hub reads) points it at a mirror.
 */
export function hubFileUrl(repo: string, revision: string, path: string, env: NodeJS.ProcessEnv = process.env): string {
  const endpoint = (env.HF_ENDPOINT?.trim() || 'https://huggingface.co').replace(/\/+$/, '')
  return `${endpoint}/datasets/${repo}/resolve/${revision}/${path}`
}

/** The rows of a parquet dataset file, downloaded and verified if need be. */
export async function readDatasetParquet(spec: DatasetFile, options: ResolveOptions = {}): Promise<JsonRecord[]> {
  return readParquet(await datasetFilePath(spec, options))
}

/** Every row of a parquet file, strings decoded as UTF-8 (64-bit integers come back as bigint). */
export async function readParquet(path: string): Promise<JsonRecord[]> {
  try {
    return await parquetReadObjects({ file: await asyncBufferFromFile(path) })
  } catch (error) {
    throw new Error(
      `${path} could not be read as parquet (${error instanceof Error ? error.message : String(error)}). ` +
        `If it is a damaged download, delete it and run again.`,
    )
  }
}
