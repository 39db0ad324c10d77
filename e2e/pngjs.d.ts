/** The part of pngjs (installed with qrcode) the screenshot comparisons use: decode and encode. */
declare module 'pngjs' {
  export class PNG {
    width: number;
    height: number;
    data: Buffer;
    static sync: { read(buffer: Buffer): PNG; write(png: PNG): Buffer };
  }
}
