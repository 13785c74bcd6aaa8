module.exports = require("./db-global-setup").teardown;
