/** The suite's running children, so that every one is stopped (newest first) whatever happens. */
import type { ChildServer } from './child-servers.js';

export class ChildProcesses {
  private readonly children: ChildServer[] = [];

  async add(starting: Promise<ChildServer>): Promise<ChildServer> {
    const child = await starting;
    this.children.push(child);
    return child;
  }

  async stop(child: ChildServer): Promise<void> {
    this.children.splice(this.children.indexOf(child), 1);
    await child.stop();
  }

  async stopAll(): Promise<void> {
    for (const child of this.children.splice(0).reverse()) await child.stop();
  }
}
