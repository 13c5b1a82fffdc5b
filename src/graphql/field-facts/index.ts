import './global-types.ts';
import SchemaBuilder from '@pothos/core';
import { FieldFactsPlugin } from './plugin.ts';

const pluginName = 'fieldFacts';
export default pluginName;

SchemaBuilder.registerPlugin(pluginName, FieldFactsPlugin);
