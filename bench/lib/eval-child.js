/** Runs the source given as its first argument (a bench's helper process: a server it measures against). */
// eslint-disable-next-line no-new-func
new Function('require', 'process', process.argv[2])(require, process);
