// The only input of playground/tsconfig.json (a config needs one): the app itself is JavaScript.
export {};
