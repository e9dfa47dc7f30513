/** One line that rewrites itself on a terminal (a plain line every few seconds otherwise). */
export class Progress {
  private lastPlain = 0;

  update(line: string): void {
    if (process.stderr.isTTY) {
      process.stderr.write(`\r\x1b[K${line}`);
    } else if (Date.now() - this.lastPlain > 5000) {
      this.lastPlain = Date.now();
      process.stderr.write(`${line}\n`);
    }
  }

  done(line: string): void {
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
    process.stderr.write(`${line}\n`);
    this.lastPlain = 0;
  }
}
