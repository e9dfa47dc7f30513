/** One sample line of Prometheus' text exposition format: `name{label="value",…} 42`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE_LINE = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g;

export function parsePrometheusText(text: string): Sample[] {
  return text.split('\n').flatMap((line) => {
    const match = SAMPLE_LINE.exec(line);
    if (!match) return [];
    const labels = Object.fromEntries(
      [...(match[2] ?? '').matchAll(LABEL)].map(([, key, value]) => [key, value]),
    );
    return [{ name: match[1], labels, value: Number(match[3]) }];
  });
}

/** The value of the first sample of `name` carrying all of `labels`; 0 when there is none (nothing counted yet). */
export function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number {
  const sample = parsePrometheusText(text).find(
    (candidate) =>
      candidate.name === name &&
      Object.entries(labels).every(([key, value]) => candidate.labels[key] === value),
  );
  return sample?.value ?? 0;
}
