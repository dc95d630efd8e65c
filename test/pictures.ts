// Pictures for the tests and the bench that upload to the tachistoscope.
import sharp from 'sharp'

/**
 * A JPEG with photo-like grain (a flat picture would compress to nothing). The grain is drawn
 * at a quarter of the size and scaled up: drawing noise for 12 megapixels costs seconds.
 */
export async function grainyJpeg(width: number, height: number, quality = 85): Promise<Buffer> {
  const grain = await sharp({
    create: {
      width: Math.ceil(width / 4),
      height: Math.ceil(height / 4),
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .png()
    .toBuffer()
  return sharp(grain).resize(width, height, { fit: 'fill' }).jpeg({ quality }).toBuffer()
}
