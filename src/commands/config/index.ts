/** `ops config list|get|set|unset|profiles`: wires the verbs; each verb module declares its flags, options and run function. */
import type { Command } from 'commander';
import type { Factory } from '../factory.js';
import { addVerbs } from '../factory.js';
import { newCmdConfigGet } from './get.js';
import { newCmdConfigList } from './list.js';
import { newCmdProfiles } from './profiles.js';
import { newCmdConfigSet, newCmdConfigUnset } from './set.js';

export function register(cmd: Command, f: Factory): void {
  cmd.addHelpText(
    'after',
    '\nSee `ops help config` for where settings live and how they are resolved.\n\nExamples:\n  ops config list\n  ops config set pipe.url https://pipelines.example.com --profile work\n  ops config profiles use work',
  );
  addVerbs(cmd, newCmdConfigList(f), newCmdConfigGet(f), newCmdConfigSet(f), newCmdConfigUnset(f), newCmdProfiles(f));
}
