// What every JavaScript matrix worker shares (docs/matrix.md): the line protocol of
// python/gauntlet/ort/ort_worker.js, a package's version, and one answer per file: accepted with what
// was read, or refused with the reader's own message.
'use strict';

const path = require('path');
const { serve, errorText, whatWasThrown } = require('../ort/ort_worker.js');
const readSummary = require('./read_summary.js');

// The package folders named on the command line (absolute), or a usage line and exit 2.
function moduleDirs(usage, count) {
  const dirs = process.argv.slice(2, 2 + count).map((d) => path.resolve(d));
  if (dirs.length < count) {
    process.stderr.write(`usage: node ${usage}\n`);
    process.exit(2);
  }
  return dirs;
}

function versionOf(moduleDir) {
  return require(path.join(moduleDir, 'package.json')).version;
}

// Serves `load(file, request)` -> the reader's model (a throw is a refusal); `summarize(model)`
// -> what it read, or null for a reader that does not expose it. A summary that fails is
// reported as such, never as a refusal: the reader did accept the file.
function serveReader(version, load, summarize) {
  serve(version, async (request) => {
    const file = typeof request === 'string' ? request : request.path;
    let model;
    try {
      model = await load(file, request);
    } catch (err) {
      return { outcome: 'refused', message: errorText(err).slice(0, 400), ...whatWasThrown(err) };
    }
    const answer = { outcome: 'accepted', message: '' };
    try {
      const read = summarize ? summarize(model) : null;
      if (read) answer.read = read;
    } catch (err) {
      answer.read_error = errorText(err).slice(0, 200);
    }
    return answer;
  }, { outcome: 'error', message: 'bad request line' });
}

module.exports = { moduleDirs, versionOf, serveReader, readSummary };
