// Files of the Debian packages the starter pool's photographs come from: fetched with apt-get,
// unpacked with dpkg-deb, and read from a Qt resource bundle (.rcc) where the package keeps
// its pictures in one (GCompris does).
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { inflateSync } from 'node:zlib'

export interface PackageFile {
  package: string
  version: string
  file: string
  member?: string
}

/** The package unpacked under `dir`, downloaded first when it is not there yet. */
function unpacked(dir: string, pkg: string, version: string): string {
  const target = join(dir, `${pkg}_${version.replace(/:/g, '%3a')}`)
  if (existsSync(target)) return target
  mkdirSync(dir, { recursive: true })
  execFileSync('apt-get', ['download', `${pkg}=${version}`], { cwd: dir, stdio: 'inherit' })
  const deb = readdirSync(dir).find((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb'))
  if (!deb) throw new Error(`apt-get download ${pkg}=${version} left no .deb in ${dir}`)
  execFileSync('dpkg-deb', ['-x', join(dir, deb), target])
  return target
}

/** One file of a Qt resource bundle (format versions 1-3; zlib or no compression). */
export function rccMember(bundle: Buffer, member: string): Buffer {
  if (bundle.toString('latin1', 0, 4) !== 'qres') throw new Error('not a Qt resource bundle')
  const version = bundle.readUInt32BE(4)
  const tree = bundle.readUInt32BE(8)
  const data = bundle.readUInt32BE(12)
  const names = bundle.readUInt32BE(16)
  const entrySize = version >= 2 ? 22 : 14
  const nameAt = (offset: number): string => {
    const length = bundle.readUInt16BE(names + offset)
    const start = names + offset + 6
    return Buffer.from(bundle.subarray(start, start + 2 * length))
      .swap16()
      .toString('utf16le')
  }
  let node = 0
  for (const part of member.split('/')) {
    const entry = tree + node * entrySize
    if (!(bundle.readUInt16BE(entry + 4) & 2)) throw new Error(`${member}: not a folder`)
    const count = bundle.readUInt32BE(entry + 6)
    const first = bundle.readUInt32BE(entry + 10)
    let found = -1
    for (let i = first; i < first + count; i++) {
      if (nameAt(bundle.readUInt32BE(tree + i * entrySize)) === part) found = i
    }
    if (found < 0) throw new Error(`${member}: no ${part}`)
    node = found
  }
  const entry = tree + node * entrySize
  const flags = bundle.readUInt16BE(entry + 4)
  const offset = data + bundle.readUInt32BE(entry + 10)
  const size = bundle.readUInt32BE(offset)
  const raw = bundle.subarray(offset + 4, offset + 4 + size)
  if (flags & 4) throw new Error(`${member}: zstd-compressed resources are not supported`)
  // qCompress: a 4-byte length, then a zlib stream.
  return flags & 1 ? inflateSync(raw.subarray(4)) : Buffer.from(raw)
}

/** The bytes of a package's file (or of a member of a resource bundle in it). */
export function readPackageFile(dir: string, from: PackageFile): Buffer {
  const bytes = readFileSync(join(unpacked(dir, from.package, from.version), from.file))
  return from.member ? rccMember(bytes, from.member) : bytes
}
