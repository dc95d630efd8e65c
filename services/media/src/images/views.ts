import type { components } from '@crv/contracts'
import { imageUrl } from './library.ts'
import type { StoredImage } from './repository.ts'

type Schemas = components['schemas']

export const imageView = (image: StoredImage): Schemas['TachistoscopeImage'] => ({
  id: image.id,
  filename: image.filename,
  dataUrl: imageUrl(image.id),
})

export const imageUrlsView = (images: StoredImage[]): Schemas['TachistoscopeImageUrls'] => ({
  urls: images.map((image) => imageUrl(image.id)),
})

export const uploadResultView = (image: StoredImage): Schemas['TachistoscopeUploadResult'] => ({
  id: image.id,
  filename: image.filename,
  category: image.category,
  url: imageUrl(image.id),
  width: image.width,
  height: image.height,
  bytes: image.bytes,
})
