// Types of the flood workload's line generator, for the benches that import it.
export declare function floodLine(i: number): string;
